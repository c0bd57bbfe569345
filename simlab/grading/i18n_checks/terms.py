"""The words the hidden checks name from small sets, with their Chinese (:data:`CHECK_TERMS`)."""

from __future__ import annotations

__all__ = ["CHECK_TERMS"]

#: Single words of the hidden checks' sentences, merged into :data:`simlab.grading.i18n.TERMS`.
CHECK_TERMS = {
    # who broke a rule under faults (simlab/grading/checks/leases/driving.py)
    "your claim": "你的 claim",
    "your claim and heartbeat": "你的 claim 和 heartbeat",
    "your record_effect": "你的 record_effect",
    "your e-mail code": "你发送邮件的代码(record_effect 和 send_step)",
}
