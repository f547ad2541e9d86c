import sys

from cardcore.cli import main

sys.exit(main())
