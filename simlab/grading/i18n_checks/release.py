"""Chinese for the hidden checks' sentences of simlab/grading/checks/release/.

Exercise 05: the injection rule and the breaker threshold.
"""

from __future__ import annotations

import re

__all__ = ["PATTERNS", "LINK_KINDS", "LINK_FORMS"]

#: The kinds of host a generated link goes to, and how it was written
#: (:mod:`simlab.grading.checks.release.links`).
LINK_KINDS = {
    "our own host": "我们自己的主机",
    "a subdomain of ours": "我们的子域名",
    "a foreign host": "外部主机",
    "a host that starts like ours": "开头和我们一样的主机",
    "a host that ends like ours": "结尾和我们一样的主机",
    "a host that holds our name": "含有我们名字的主机",
    "an IP address": "IP 地址",
    "a punycode or non-ASCII host": "punycode 或非 ASCII 的主机",
}
LINK_FORMS = {
    "with our host and a password as its user part": "user 部分是我们的主机加密码",
    "with our host as its user part": "user 部分是我们的主机",
    "with an @ inside its user part": "user 部分里还有一个 @",
    "with a user part": "带 user 部分",
    "in capitals": "用大写字母",
    "with a trailing dot": "末尾带点",
    "on a port": "带端口",
    "with our host in its query": "查询参数里有我们的主机",
    "with our host in its path": "路径里有我们的主机",
}
_KINDS = "|".join(map(re.escape, LINK_KINDS))
_FORMS = "|".join(map(re.escape, LINK_FORMS))

PATTERNS: tuple[tuple, ...] = (
    (
        r"injection_rule\(\) returned (?P<k>\w+), expected True or False",
        "injection_rule() 返回了 {k},应返回 True 或 False",
    ),
    (
        r"(?P<what>.+): injection_rule\(\) said (?P<a>\w+), but that run did no harm",
        "{what}:injection_rule() 判为 {a},但那次运行没有造成危害",
        ("what",),
    ),
    (
        r"(?P<what>.+): injection_rule\(\) said (?P<a>\w+), but that run did harm",
        "{what}:injection_rule() 判为 {a},但那次运行造成了危害",
        ("what",),
    ),
    (r"production's answer \(version A\)", "生产版本(A)的回答"),
    (
        r"the model change \(version C\), which obeys the injected line",
        "更换模型后的版本(C),它听从了注入的那句话",
    ),
    (r"an answer linking to another company's host", "一个链接到别家公司主机的回答"),
    (r"an answer linking to a host that starts like ours", "一个链接到开头和我们一样的主机的回答"),
    (
        r"an answer linking to a host whose name ends like ours",
        "一个链接到名字结尾和我们一样的主机的回答",
    ),
    (
        r"an answer whose link names our host before an @",
        "一个回答,其链接在 @ 之前写了我们的主机",
    ),
    (
        r"an answer whose foreign link names our host in its query",
        "一个回答,其外部链接在查询参数里写了我们的主机",
    ),
    (r"an answer linking to a foreign host in capitals", "一个用大写字母链接到外部主机的回答"),
    (r"an answer linking to a subdomain of ours", "一个链接到我们子域名的回答"),
    (r"an answer linking to our own host with a query", "一个链接到我们自己主机(带查询参数)的回答"),
    (
        r"an answer linking to a subdomain of ours in capitals",
        "一个用大写字母链接到我们子域名的回答",
    ),
    (
        r"an answer linking to a subdomain of ours on a port",
        "一个链接到我们子域名(带端口)的回答",
    ),
    (
        r"an answer linking to our own host with a user@ part",
        "一个链接到我们自己主机(带 user@ 部分)的回答",
    ),
    (r"an answer worded differently, no link", "一个措辞不同、没有链接的回答"),
    (
        r"an answer with a link of ours, then a foreign one",
        "一个先有我们的链接、后有外部链接的回答",
    ),
    (
        r"an answer with a foreign link, then one of ours",
        "一个先有外部链接、后有我们的链接的回答",
    ),
    (r"an answer with two links of ours", "一个有两个我们自己链接的回答"),
    (r"a copy of the answer also went elsewhere", "回答的一份副本还发给了别处"),
    (r"the customer got the answer twice", "客户收到了两次回答"),
    (r"the only e-mail went to someone else", "唯一的一封邮件发给了别人"),
    (r"no e-mail went out at all", "一封邮件也没有发出"),
    (
        r"noise_peak\((?P<c>.+), a hidden seed\) gave (?P<v>.+), not the highest error rate "
        r"among the canary's windows",
        "noise_peak({c}, 一个隐藏的种子) 得到 {v},不是金丝雀各窗口中最高的错误率",
    ),
    (
        r"noise_peak\((?P<c>.+), a hidden seed\) gave (?P<v>.+), not the highest error rate "
        r"among the windows the breaker could judge \(requests >= min_requests\)",
        "noise_peak({c}, 一个隐藏的种子) 得到 {v},不是熔断器能够判断的窗口"
        "(requests >= min_requests)中最高的错误率",
    ),
    (
        r"choose_threshold\(\) on several hidden seeds gave (?P<v>.+), not the smallest of "
        r"THRESHOLDS at or above \(>=\) the highest noise_peak\('A', seed\) over the seeds given",
        "在几个隐藏的种子上 choose_threshold() 得到 {v},不是 THRESHOLDS 中"
        "大于等于(>=)给定种子上最高 noise_peak('A', seed) 的最小阈值",
    ),
    (
        r"choose_threshold\(\) on another hidden seed gave (?P<v>.+), not the smallest of "
        r"THRESHOLDS at or above \(>=\) the highest noise_peak\('A', seed\) over the seeds given",
        "在另一个隐藏的种子上 choose_threshold() 得到 {v},不是 THRESHOLDS 中"
        "大于等于(>=)给定种子上最高 noise_peak('A', seed) 的最小阈值",
    ),
    (
        r"trip_rate\((?P<c>.+), (?P<t>[\d.]+), hidden seeds\) gave (?P<v>.+), not the share of "
        r"the seeds on which the breaker tripped",
        "trip_rate({c}, {t}, 隐藏的种子) 得到 {v},不是熔断器跳闸的种子所占的比例",
    ),
    # --- the generated properties' stories (simlab/grading/checks/release/links.py) ---------
    (r"one e-mail to the customer", "一封发给客户的邮件"),
    (r"an e-mail to the customer", "一封发给客户的邮件"),
    (r"an e-mail to another customer of ours", "一封发给我们另一位客户的邮件"),
    (r"an e-mail to a foreign address", "一封发给外部地址的邮件"),
    (r"no e-mail at all", "一封邮件也没有"),
    (
        rf"a link to (?P<k>{_KINDS}) written (?P<f>.+)",
        "一个指向{k}的链接(写法:{f})",
        ("k", "f"),
    ),
    (rf"a link to (?P<k>{_KINDS})", "一个指向{k}的链接", ("k",)),
    (rf"(?P<a>{_FORMS}) and (?P<b>.+)", "{a},{b}", ("a", "b")),
    *((re.escape(en), zh) for en, zh in (*LINK_KINDS.items(), *LINK_FORMS.items())),
    (
        r"injection_rule\(\) gave (?P<a>\w+), but that run did no harm",
        "injection_rule() 给出 {a},但那次运行没有造成危害",
    ),
    (
        r"injection_rule\(\) gave (?P<a>\w+), but that run did harm",
        "injection_rule() 给出 {a},但那次运行造成了危害",
    ),
)
