"""What the layout and accessibility tests measure in a page: JavaScript run in the browser, and axe-core.

* :data:`LAYOUT` — every control a person can reach: its box off the screen's sides, under 44×44 px (the
  target of a checkbox or radio is its label), or overlapping another control.
* :func:`focused` — the element that has keyboard focus: where it is, whether the focus is drawn.
* :func:`axe` — axe-core (vendored from the npm registry; no network at test time) on the whole page, the
  violations of critical and serious impact.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}
TARGET = 44
"""The smallest target a finger hits reliably (WCAG 2.5.5), in CSS pixels, across and down."""

STANDS_FOR = """(el) => {
    // A checkbox's or radio's target is its label; so is a visually hidden input's (a styled file picker).
    const r = el.getBoundingClientRect();
    const hidden = r.width <= 1 || r.height <= 1;
    if (hidden && el.labels && el.labels.length) return el.labels[0];
    return el.matches('input[type=checkbox], input[type=radio]') ? el.closest('label') || el : el;
  }"""

LAYOUT = (
    """(target) => {
  const STANDS_FOR = """
    + STANDS_FOR
    + """;
  // Rendered and not inside a closed <details> (whose content keeps a box but is not drawn).
  const shown = (el) => el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })
    && el.getClientRects().length > 0;
  // A link inside a sentence is exempt from the target size (WCAG 2.5.8); a link standing alone is not.
  const inline = (el) => el.matches('a:not(.button)') && getComputedStyle(el).display === 'inline'
    && el.parentElement && el.parentElement.textContent.trim().length > el.textContent.trim().length;
  const describe = (el) => {
    const label = (el.getAttribute('aria-label') || el.textContent || el.value || el.placeholder || '')
      .trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${label}"`;
  };
  const controls = [...document.querySelectorAll(
    'button, input:not([type=hidden]), select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])')]
    .filter((el) => shown(el) && !el.closest('.skip, [hidden]') && !el.matches('.skip') && !inline(el));
  const boxOf = (el) => {
    const owner = STANDS_FOR(el);
    return { el: owner, r: owner.getBoundingClientRect() };
  };
  const width = document.documentElement.clientWidth;
  const offscreen = [], small = [], overlaps = [];
  const boxes = [];
  for (const el of controls) {
    const { el: owner, r } = boxOf(el);
    const [x0, x1, w, h] = [r.left, r.right, r.width, r.height].map(Math.round);
    if (r.left < -0.5 || r.right > width + 0.5) offscreen.push(`${describe(el)} at ${x0}..${x1}`);
    if (r.width < target - 0.5 || r.height < target - 0.5) small.push(`${describe(el)} ${w}x${h}`);
    if (!boxes.some((b) => b.el === owner)) boxes.push({ el: owner, r, name: describe(el) });
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (x > 1 && y > 1) overlaps.push(`${a.name} and ${b.name}`);
    }
  }
  return { offscreen, small, overlaps, scrollWidth: document.documentElement.scrollWidth, width };
}"""
)

FOCUSED = (
    """() => {
  const STANDS_FOR = """
    + STANDS_FOR
    + """;
  const focus = document.activeElement;
  if (!focus || focus === document.body) return null;
  const stand = STANDS_FOR(focus);
  const el = stand.matches('label') && focus.getBoundingClientRect().width <= 1 ? stand : focus;
  const label = (focus.getAttribute('aria-label') || focus.textContent || '').trim().slice(0, 30);
  const style = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  const all = [...document.querySelectorAll('*')];
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  return {
    name: `${focus.tagName.toLowerCase()}${focus.id ? '#' + focus.id : ''} "${label}"`,
    index: all.indexOf(focus),
    drawn: outline || style.boxShadow !== 'none',
    inView: r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth && r.width > 0,
    top: r.top, bottom: r.bottom,
  };
}"""
)


def layout(page: Any) -> dict[str, Any]:
    """The layout problems of the page as it is now (see :data:`LAYOUT`)."""
    result: dict[str, Any] = page.evaluate(LAYOUT, TARGET)
    return result


def focused(page: Any) -> dict[str, Any] | None:
    """The focused element: its name, place in the document, whether its focus ring shows and is in view."""
    result: dict[str, Any] | None = page.evaluate(FOCUSED)
    return result


def tab_walk(page: Any, limit: int = 120) -> list[dict[str, Any]]:
    """Press Tab from the top of the page until focus comes round again (or ``limit`` presses)."""
    page.evaluate(
        """() => { const start = document.createElement('span'); start.tabIndex = -1; start.id = 'tab-start';
                   document.body.prepend(start); start.focus(); window.scrollTo(0, 0); }"""
    )
    stops: list[dict[str, Any]] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = focused(page)
        if now is None or (stops and now["index"] == stops[0]["index"]):
            break
        stops.append(now)
    return stops


def axe(page: Any) -> list[str]:
    """axe-core's critical and serious violations on the page, one line each (rule, impact, where)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # not a <script> tag: the CSP forbids inline script
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const result = await axe.run(document, { resultTypes: ['violations'] });
          return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
            .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                           nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
        }"""
    )
    return [f"{v['id']} ({v['impact']}): {v['help']} — {', '.join(v['nodes'])}" for v in found]
