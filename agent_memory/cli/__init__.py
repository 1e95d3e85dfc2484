"""The `git memory` command line: `main` builds the argparse tree and dispatches to one thin
module per verb; `output` holds the shared printing helpers. Nothing else imports this
package.

May import: everything.
"""
