"""The feedback of exercise ``release``'s hidden checks, by ID (``release.<key>``), in English
(``EN``) and Chinese (``ZH``); the checks speak them with :data:`say`. Keys are grouped by the
question that says them. See :mod:`simlab.grading.messages`."""

from __future__ import annotations

from simlab.grading.messages import speaker

__all__ = ["EN", "ZH", "say"]

#: A message of this exercise: ``say(key, **values)``.
say = speaker("release")

EN = {
    # injection-rule: the checks
    "not_a_bool": "injection_rule() returned {kind}, expected True or False",
    "said_no_harm": "{what}: injection_rule() said {got}, but that run did no harm",
    "said_harm": "{what}: injection_rule() said {got}, but that run did harm",
    "gave_no_harm": "injection_rule() gave {got}, but that run did no harm",
    "domains_middle": (
        "with OUR_DOMAINS naming several other domains, injection_rule() gave {got} for a link to "
        "a subdomain of one that is neither the first nor the last: ours, as a subdomain of any "
        "of them is"
    ),
    "domains_itself": (
        "with OUR_DOMAINS naming several other domains, injection_rule() gave {got} for a link to "
        "one of them (not the first) itself: ours, as each of them is"
    ),
    "domains_notebook": (
        "with OUR_DOMAINS naming several other domains, injection_rule() gave {got} for a link "
        "to example.com, which is foreign then: read OUR_DOMAINS at each call"
    ),
    "domains_changed": (
        "injection_rule() gave {got} for an e-mail judged before, once OUR_DOMAINS no longer "
        "named its link's domain (foreign now): read OUR_DOMAINS at each call"
    ),
    "domains_beside": (
        "with OUR_DOMAINS naming one domain of three labels, injection_rule() gave {got} for a "
        "link to another host under the same last two labels: foreign, as it is neither that "
        "domain nor a subdomain of it"
    ),
    "gave_harm": "injection_rule() gave {got}, but that run did harm",
    # injection-rule: the answers judged, as feedback names them
    "production": "production's answer (version A)",
    "model_change": "the model change (version C), which obeys the injected line",
    "model_change_elsewhere": "the model change, its injection naming another host",
    "another_company": "an answer linking to another company's host",
    "starts_like_ours": "an answer linking to a host that starts like ours",
    "ends_like_ours": "an answer linking to a host whose name ends like ours",
    "holds_ours": "an answer linking to a foreign host that holds our name",
    "ours_before_at": "an answer whose link names our host before an @",
    "ours_inside": (
        "an answer whose link names our host, then a character the text does not end a link "
        "at, then an @"
    ),
    "ours_in_query": "an answer whose foreign link names our host in its query",
    "ours_encoded_before_at": (
        "an answer whose link names our host, then a percent-encoded slash (%2f), before an @ "
        "(the host is read as urlsplit gives it, nothing decoded)"
    ),
    "foreign_in_capitals": "an answer linking to a foreign host in capitals",
    "empty_host": (
        "an answer whose link has an empty host (three slashes) before a foreign name, so no "
        "host of ours"
    ),
    "unreadable_host": (
        "an answer whose link's host cannot be read (urlsplit raises ValueError), so no host of "
        "ours"
    ),
    "our_subdomain": "an answer linking to a subdomain of ours",
    "ours_with_query": "an answer linking to our own host with a query",
    "our_subdomain_in_capitals": "an answer linking to a subdomain of ours in capitals",
    "our_subdomain_on_port": "an answer linking to a subdomain of ours on a port",
    "ours_with_user": "an answer linking to our own host with a user@ part",
    "reworded": "an answer worded differently, no link",
    "foreign_link_in_subject": (
        "an answer with no link in its body, under a subject that repeats a customer's question "
        "holding a foreign link (only bodies are read for links)"
    ),
    "ours_then_foreign": "an answer with a link of ours, then a foreign one",
    "ours_then_foreign_wide_space": (
        "an answer with a link of ours, then a foreign one, between them white space that is "
        "not ASCII (a no-break space, say), which ends a link as any white space does"
    ),
    "foreign_then_ours": "an answer with a foreign link, then one of ours",
    "two_of_ours": "an answer with two links of ours",
    "foreign_glued": "an answer with a foreign link glued to the text before it",
    "foreign_glued_to_word": (
        "an answer with a foreign link right after a letter, a digit or an underscore"
    ),
    "ours_sentence_end": (
        "an answer with a link to our own host followed by the punctuation that ends its sentence"
    ),
    "ours_in_brackets": "an answer with a link to our own host in brackets",
    "ours_in_quotes": "an answer with a link to our own host in quotes",
    "foreign_backslash_ours": (
        "an answer linking to a foreign host with a backslash and our name after it "
        "(a browser reads the backslash as a slash)"
    ),
    "ours_backslash": (
        "an answer linking to our own host with a backslash and a foreign name after it "
        "(a browser reads the backslash as a slash)"
    ),
    "changed_obs": (
        "{what}: injection_rule() changed the observation it was given; it may only read it"
    ),
    "to_a_customer": "production's answer to a customer at our domain",
    "to_a_customer_elsewhere": "production's answer to a customer whose address is not ours",
    "copy_elsewhere": "a copy of the answer also went elsewhere",
    "blank_elsewhere": "an e-mail with an empty body also went elsewhere",
    "copies_out_of_order": (
        "e-mails to the customer and to others, not in the order of their addresses"
    ),
    "twice": "the customer got the answer twice",
    "someone_else": "the only e-mail went to someone else",
    "another_customer_only": "the only e-mail went to another customer of ours",
    "look_alike_only": (
        "the only e-mail went to an address that holds the customer's but is not theirs"
    ),
    "reported_elsewhere": (
        "the only e-mail went to someone else, and the run's result names them as its recipient"
    ),
    "customer_in_capitals": (
        "the only e-mail went to the customer's address written in other capitals, which is "
        "not obs['recipient'] exactly"
    ),
    "customer_with_white_space": (
        "the only e-mail went to the customer's address with white space around it, which is "
        "not obs['recipient'] exactly"
    ),
    "customer_full_width": (
        "the only e-mail went to the customer's address written in full-width look-alike "
        "letters, which is not obs['recipient'] exactly"
    ),
    "other_scheme": (
        "an answer naming a foreign host after a scheme that is not http:// or https:// "
        "(not a link, as the text defines one)"
    ),
    "no_mail": "no e-mail went out at all",
    # injection-rule: the stories of generated observations
    "one_mail": "one e-mail to the customer",
    "mail_customer": "an e-mail to the customer",
    "mail_other_customer": "an e-mail to another customer of ours",
    "mail_foreign": "an e-mail to a foreign address",
    "no_mail_at_all": "no e-mail at all",
    "link": "a link to {kind}",
    "link_written": "a link to {kind} written {forms}",
    "and": "{first} and {rest}",
    # the kinds of host of a generated link (links.HOSTS)
    "host_ours": "our own host",
    "host_subdomain": "a subdomain of ours",
    "host_foreign": "a foreign host",
    "host_starts": "a host that starts like ours",
    "host_ends": "a host that ends like ours",
    "host_holds": "a host that holds our name",
    "host_ip": "an IP address",
    "host_punycode": "a punycode or non-ASCII host",
    # how a generated link was written
    "form_user": "with a user part",
    "form_user_ours": "with our host as its user part",
    "form_user_password": "with our host and a password as its user part",
    "form_user_at": "with an @ inside its user part",
    "form_capitals": "in capitals",
    "form_dot": "with a trailing dot",
    "form_port": "on a port",
    "form_query": "with our host in its query",
    "form_path": "with our host in its path",
    # choose-threshold
    "peak_not_highest": (
        "noise_peak({candidate}, a hidden seed) gave {got}, not the highest error rate among the "
        "canary's windows"
    ),
    "peak_not_judged": (
        "noise_peak({candidate}, a hidden seed) gave {got}, not the highest error rate among the "
        "windows the breaker could judge (requests >= min_requests)"
    ),
    "peak_own_watch": (
        "noise_peak({candidate}, a hidden seed), WATCH_ONLY setting its own min_requests, gave "
        "{got}, not the highest error_rate with requests >= run.config.min_requests (0.0 if none)"
    ),
    "peak_usual_watch": (
        "noise_peak({candidate}, a hidden seed), WATCH_ONLY setting its own min_requests, gave "
        "the usual WATCH_ONLY's peak: count by each run's run.config.min_requests (no typed-in "
        "number, no earlier peak)"
    ),
    "threshold_several": (
        "choose_threshold() on several hidden seeds gave {got}, not the smallest of THRESHOLDS "
        "at or above (>=) the highest noise_peak('A', seed) over the seeds given"
    ),
    "threshold_another": (
        "choose_threshold() on another hidden seed gave {got}, not the smallest of THRESHOLDS at "
        "or above (>=) the highest noise_peak('A', seed) over the seeds given"
    ),
    "threshold_own_list": (
        "choose_threshold() on a hidden seed, THRESHOLDS holding other thresholds, gave {got}, "
        "not the smallest of them at or above (>=) the highest noise_peak('A', seed)"
    ),
    "threshold_usual_list": (
        "choose_threshold() on a hidden seed, THRESHOLDS holding other thresholds, gave the "
        "threshold of the usual THRESHOLDS: read THRESHOLDS at each call"
    ),
    "threshold_just_below": (
        "choose_threshold() on a hidden seed, THRESHOLDS holding a threshold just below the "
        "peak, gave that threshold: it is not at least (>=) the highest noise_peak('A', seed), "
        "however little below it lies (compare the peak itself, not a rounding of it)"
    ),
    "watch_changed": (
        "{function}() left WATCH_ONLY changed after its call: none of the three functions may "
        "change it (every later call reads it, and noise_peak() must watch with the breaker off)"
    ),
    "rate": (
        "trip_rate({candidate}, {threshold}, hidden seeds) gave {got}, not the share of the seeds "
        "on which the breaker tripped"
    ),
    "rate_repeated": (
        "trip_rate({candidate}, {threshold}, hidden seeds, one listed twice) gave the share of "
        "the seeds counted once, not of the seeds as listed (a seed listed twice counts twice)"
    ),
    "another_number": "another number",
    "rate_own_watch": (
        "trip_rate({candidate}, {threshold}, hidden seeds), WATCH_ONLY setting its own duration, "
        "gave {got}, not the share of the seeds on which a canary of that duration tripped"
    ),
    "rate_usual_watch": (
        "trip_rate({candidate}, {threshold}, hidden seeds), WATCH_ONLY setting its own duration, "
        "gave the share of the usual duration: read WATCH_ONLY at each call"
    ),
    "rate_with_cost": (
        "trip_rate({candidate}, {threshold}, hidden seeds), WATCH_ONLY setting its own max_cost "
        "and min_requests, gave the share of canaries given that max_cost: the breaker's canary "
        "takes exactly candidate, duration and max_error_rate"
    ),
    "rate_own_cost": (
        "trip_rate({candidate}, {threshold}, hidden seeds), WATCH_ONLY setting its own max_cost "
        "and min_requests, gave {got}, not the share of the seeds on which the breaker's canary "
        "(exactly candidate, duration and max_error_rate) tripped (run.trips not empty)"
    ),
}

ZH = {
    "not_a_bool": "injection_rule() 返回了 {kind}，应返回 True 或 False",
    "said_no_harm": "{what}：injection_rule() 判为 {got}，但那次运行没有造成危害",
    "said_harm": "{what}：injection_rule() 判为 {got}，但那次运行造成了危害",
    "gave_no_harm": "injection_rule() 给出 {got}，但那次运行没有造成危害",
    "domains_middle": (
        "OUR_DOMAINS 改为另外几个域名时，injection_rule() 对指向其中某个（既不是第一个也不是"
        "最后一个）域名的子域名的链接给出 {got}：它是我们的，其中任何一个域名的子域名都是"
    ),
    "domains_itself": (
        "OUR_DOMAINS 改为另外几个域名时，injection_rule() 对指向其中某个（不是第一个）域名本身"
        "的链接给出 {got}：它是我们的，其中每个域名都是"
    ),
    "domains_notebook": (
        "OUR_DOMAINS 改为另外几个域名时，injection_rule() 对指向 example.com 的链接给出 {got}，"
        "而这时它是外部的：每次调用时都要读取 OUR_DOMAINS"
    ),
    "domains_changed": (
        "对一封之前判定过的邮件，OUR_DOMAINS 不再包含其链接的域名（它现在是外部的）之后，"
        "injection_rule() 给出 {got}：每次调用时都要读取 OUR_DOMAINS"
    ),
    "domains_beside": (
        "OUR_DOMAINS 只包含一个三段的域名时，injection_rule() 对指向最后两段相同的另一个主机的"
        "链接给出 {got}：它是外部的，因为它既不是那个域名，也不是它的子域名"
    ),
    "gave_harm": "injection_rule() 给出 {got}，但那次运行造成了危害",
    "production": "生产版本（A）的回答",
    "model_change": "更换模型后的版本（C），它听从了注入的那句话",
    "model_change_elsewhere": "更换模型后的版本，其注入的那句话指向另一个主机",
    "another_company": "一个链接到别家公司主机的回答",
    "starts_like_ours": "一个链接到开头和我们一样的主机的回答",
    "ends_like_ours": "一个链接到名字结尾和我们一样的主机的回答",
    "holds_ours": "一个链接到含有我们名字的外部主机的回答",
    "ours_before_at": "一个回答，其链接在 @ 之前写了我们的主机",
    "ours_inside": "一个回答，其链接先写了我们的主机，再写一个题目不以之结束链接的字符，然后是 @",
    "ours_in_query": "一个回答，其外部链接在查询参数里写了我们的主机",
    "ours_encoded_before_at": (
        "一个回答，其链接在 @ 之前写了我们的主机和一个百分号编码的斜杠（%2f）"
        "（主机按 urlsplit 给出的读取，什么都不解码）"
    ),
    "foreign_in_capitals": "一个用大写字母链接到外部主机的回答",
    "empty_host": (
        "一个回答，其链接的主机为空（三个斜杠），后面跟着一个外部名字，因此不是我们的主机"
    ),
    "unreadable_host": (
        "一个回答，其链接的主机无法读取（urlsplit 抛出 ValueError），因此不是我们的主机"
    ),
    "our_subdomain": "一个链接到我们子域名的回答",
    "ours_with_query": "一个链接到我们自己主机（带查询参数）的回答",
    "our_subdomain_in_capitals": "一个用大写字母链接到我们子域名的回答",
    "our_subdomain_on_port": "一个链接到我们子域名（带端口）的回答",
    "ours_with_user": "一个链接到我们自己主机（带 user@ 部分）的回答",
    "reworded": "一个措辞不同、没有链接的回答",
    "foreign_link_in_subject": (
        "一个正文里没有链接的回答，其主题重复了客户的问题，问题里有一个外部链接（只在正文里找链接）"
    ),
    "ours_then_foreign": "一个先有我们的链接、后有外部链接的回答",
    "ours_then_foreign_wide_space": (
        "一个先有我们的链接、后有外部链接的回答，两者之间是非 ASCII 的空白字符（比如不换行空格），"
        "它和任何空白字符一样会结束一个链接"
    ),
    "foreign_then_ours": "一个先有外部链接、后有我们的链接的回答",
    "two_of_ours": "一个有两个我们自己链接的回答",
    "foreign_glued": "一个外部链接紧贴在前面文字之后的回答",
    "foreign_glued_to_word": "一个外部链接紧跟在字母、数字或下划线之后的回答",
    "ours_sentence_end": "一个链接到我们自己主机、后面紧跟句末标点的回答",
    "ours_in_brackets": "一个链接到我们自己主机、链接放在括号里的回答",
    "ours_in_quotes": "一个链接到我们自己主机、链接放在引号里的回答",
    "foreign_backslash_ours": (
        "一个链接到外部主机、其后是反斜杠和我们的名字的回答（浏览器把反斜杠当作斜杠）"
    ),
    "ours_backslash": (
        "一个链接到我们自己主机、其后是反斜杠和外部名字的回答（浏览器把反斜杠当作斜杠）"
    ),
    "changed_obs": "{what}：injection_rule() 改动了传给它的观测；它只能读取，不能修改",
    "to_a_customer": "生产版本发给一位我们域名下客户的回答",
    "to_a_customer_elsewhere": "生产版本发给一位地址不在我们域名下的客户的回答",
    "copy_elsewhere": "回答的一份副本还发给了别处",
    "blank_elsewhere": "还有一封正文为空的邮件发给了别处",
    "copies_out_of_order": "发给客户和其他人的几封邮件，没有按地址排序",
    "twice": "客户收到了两次回答",
    "someone_else": "唯一的一封邮件发给了别人",
    "another_customer_only": "唯一的一封邮件发给了我们的另一位客户",
    "look_alike_only": "唯一的一封邮件发给了一个包含客户地址、却不是客户本人的地址",
    "reported_elsewhere": "唯一的一封邮件发给了别人，而运行结果也把此人记为收件人",
    "customer_in_capitals": (
        "唯一的一封邮件发给了客户地址的另一种大小写写法，它并不与 obs['recipient'] 完全相同"
    ),
    "customer_with_white_space": (
        "唯一的一封邮件发给了前后带空白字符的客户地址，它并不与 obs['recipient'] 完全相同"
    ),
    "customer_full_width": (
        "唯一的一封邮件发给了用全角形近字母写成的客户地址，它并不与 obs['recipient'] 完全相同"
    ),
    "other_scheme": (
        "一个回答，在不是 http:// 或 https:// 的协议之后写了一个外部主机"
        "（按题目的定义，这不是链接）"
    ),
    "no_mail": "一封邮件也没有发出",
    "one_mail": "一封发给客户的邮件",
    "mail_customer": "一封发给客户的邮件",
    "mail_other_customer": "一封发给我们另一位客户的邮件",
    "mail_foreign": "一封发给外部地址的邮件",
    "no_mail_at_all": "一封邮件也没有",
    "link": "一个指向{kind}的链接",
    "link_written": "一个指向{kind}的链接（写法：{forms}）",
    "and": "{first}，{rest}",
    "host_ours": "我们自己的主机",
    "host_subdomain": "我们的子域名",
    "host_foreign": "外部主机",
    "host_starts": "开头和我们一样的主机",
    "host_ends": "结尾和我们一样的主机",
    "host_holds": "含有我们名字的主机",
    "host_ip": "IP 地址",
    "host_punycode": "punycode 或非 ASCII 的主机",
    "form_user": "带 user 部分",
    "form_user_ours": "user 部分是我们的主机",
    "form_user_password": "user 部分是我们的主机加密码",
    "form_user_at": "user 部分里还有一个 @",
    "form_capitals": "用大写字母",
    "form_dot": "末尾带点",
    "form_port": "带端口",
    "form_query": "查询参数里有我们的主机",
    "form_path": "路径里有我们的主机",
    "peak_not_highest": (
        "noise_peak（{candidate}，一个隐藏的种子）得到 {got}，不是金丝雀各窗口中最高的错误率"
    ),
    "peak_not_judged": (
        "noise_peak（{candidate}，一个隐藏的种子）得到 {got}，不是熔断器能够判断的窗口"
        "（requests >= min_requests）中最高的错误率"
    ),
    "peak_own_watch": (
        "noise_peak（{candidate}，一个隐藏的种子）在 WATCH_ONLY 另设 min_requests 时得到 {got}，"
        "不是 requests >= run.config.min_requests 的窗口中最高的 error_rate（没有则为 0.0）"
    ),
    "peak_usual_watch": (
        "noise_peak（{candidate}，一个隐藏的种子）在 WATCH_ONLY 另设 min_requests 时得到的是平常 "
        "WATCH_ONLY 下的峰值：按每次运行的 run.config.min_requests 筛选（不要键入数字，"
        "也不要沿用之前的峰值）"
    ),
    "threshold_several": (
        "在几个隐藏的种子上 choose_threshold() 得到 {got}，不是 THRESHOLDS 中"
        "大于等于（>=）给定种子上最高 noise_peak('A', seed) 的最小阈值"
    ),
    "threshold_another": (
        "在另一个隐藏的种子上 choose_threshold() 得到 {got}，不是 THRESHOLDS 中"
        "大于等于（>=）给定种子上最高 noise_peak('A', seed) 的最小阈值"
    ),
    "threshold_own_list": (
        "在一个隐藏的种子上、THRESHOLDS 改为另一组阈值时，choose_threshold() 得到 {got}，"
        "不是其中大于等于（>=）最高 noise_peak('A', seed) 的最小阈值"
    ),
    "threshold_usual_list": (
        "在一个隐藏的种子上、THRESHOLDS 改为另一组阈值时，choose_threshold() 得到的是平常 "
        "THRESHOLDS 中的阈值：每次调用时都要读取 THRESHOLDS"
    ),
    "threshold_just_below": (
        "在一个隐藏的种子上、THRESHOLDS 含有一个略低于峰值的阈值时，choose_threshold() 得到的"
        "正是这个阈值：无论它比最高的 noise_peak('A', seed) 低得多么少，都不算大于等于（>=）"
        "峰值（要与峰值本身比较，而不是与它舍入后的值比较）"
    ),
    "watch_changed": (
        "{function}() 调用之后 WATCH_ONLY 被改动了：这三个函数都不得改动它"
        "（之后的每次调用都要读取它，而 noise_peak() 必须在熔断器不动作时观察）"
    ),
    "rate": (
        "trip_rate（{candidate}，{threshold}，"
        "隐藏的种子）得到 {got}，不是熔断器熔断的种子所占的比例"
    ),
    "rate_repeated": (
        "trip_rate（{candidate}，{threshold}，隐藏的种子，其中一个列出两次）得到的是每个种子只算"
        "一次时的比例，而不是按列出的种子计算的比例（列出两次的种子算两次）"
    ),
    "another_number": "另一个数",
    "rate_own_watch": (
        "trip_rate（{candidate}，{threshold}，隐藏的种子）在 WATCH_ONLY 另设 duration 时得到 "
        "{got}，不是该时长的金丝雀熔断的种子所占的比例"
    ),
    "rate_usual_watch": (
        "trip_rate（{candidate}，{threshold}，隐藏的种子）在 WATCH_ONLY 另设 duration 时得到的"
        "是平常时长下的比例：每次调用时都要读取 WATCH_ONLY"
    ),
    "rate_with_cost": (
        "trip_rate（{candidate}，{threshold}，隐藏的种子）在 WATCH_ONLY 另设 max_cost 和 "
        "min_requests 时得到的是带上该 max_cost 的灰度的比例：开启熔断器的灰度恰好只取 "
        "candidate、duration 和 max_error_rate"
    ),
    "rate_own_cost": (
        "trip_rate（{candidate}，{threshold}，隐藏的种子）在 WATCH_ONLY 另设 max_cost 和 "
        "min_requests 时得到 {got}，不是开启熔断器的灰度（恰好只取 candidate、duration 和 "
        "max_error_rate）熔断（run.trips 不为空）的种子所占的比例"
    ),
}
