"""``python -m xueliu``: the ``xueliu`` command (``python -m xueliu --help``)."""

from xueliu.cli import main

if __name__ == "__main__":
    main()
