import sys

from cardcore.apps.cli import main

sys.exit(main())
