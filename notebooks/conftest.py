"""pytest settings for the notebooks' own run (``make test``'s nbval step).

A Jupyter kernel now and then fails to start when several start at once (measured: 1 of 45
starts, three processes starting kernels side by side with nbval's own ``start_new_kernel``;
in CI once: "Kernel died before replying to kernel_info", 30 cells of one notebook lost). A
kernel that fails to *start* is started again, up to :data:`TRIES` times; a cell's failure is
never retried, so an output that changed still fails.
"""

from __future__ import annotations

import nbval.kernel

#: Kernel starts per notebook before its cells error.
TRIES = 3

_start_new_kernel = nbval.kernel.start_new_kernel


def _start_with_retries(*args, **kwargs):
    for attempt in range(1, TRIES + 1):
        try:
            return _start_new_kernel(*args, **kwargs)
        except RuntimeError:  # died before kernel_info, or did not respond in time
            if attempt == TRIES:
                raise


nbval.kernel.start_new_kernel = _start_with_retries
