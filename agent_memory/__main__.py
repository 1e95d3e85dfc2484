from __future__ import annotations

from agent_memory.cli.main import main

raise SystemExit(main())
