"""``python -m talespin``: the same command line as the ``talespin`` script."""

from talespin.cli import main

if __name__ == "__main__":
    main()
