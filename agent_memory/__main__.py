from __future__ import annotations

from agent_memory.main import main

raise SystemExit(main())
