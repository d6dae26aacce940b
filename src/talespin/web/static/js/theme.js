// Light or dark: the system's preference until the person picks one with the toggle in the top bar; the
// choice is kept in this browser. The stylesheet reads <html data-theme="light|dark">.

const KEY = "talespin:theme";
const root = document.documentElement;
const media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

/** The theme in force: the one picked here, else the system's. */
export function currentTheme() {
  const picked = localStorage.getItem(KEY);
  if (picked === "light" || picked === "dark") return picked;
  return media && media.matches ? "dark" : "light";
}

function apply(button) {
  const theme = currentTheme();
  if (localStorage.getItem(KEY)) root.dataset.theme = theme;
  else delete root.dataset.theme;
  if (button) {
    button.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
    button.textContent = theme === "dark" ? "Dark mode: on" : "Dark mode: off";
  }
}

/** Put the toggle into the page's top bar (once). */
export function mountThemeToggle() {
  const bar = document.querySelector(".topbar");
  if (!bar || bar.querySelector(".theme-toggle")) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "ghost small theme-toggle";
  button.id = "theme-toggle";
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, currentTheme() === "dark" ? "light" : "dark");
    apply(button);
  });
  bar.append(button);
  apply(button);
  if (media && media.addEventListener) media.addEventListener("change", () => apply(button));
}

apply(null);
mountThemeToggle();
