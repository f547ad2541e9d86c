import sys

from cardcore.apps.cli import main

if __name__ == "__main__":  # not when a worker process started by spawning imports it
    sys.exit(main())
