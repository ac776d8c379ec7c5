package sanitize

// Vocabulary shared by several rules. Patterns run on normalised text: lower
// case, whitespace collapsed, typographic quotes folded to ASCII.
const (
	// Verbs that tell a model to drop what it was told.
	vOverride = `(?:ignore|ignoring|disregard|disregarding|forget|forgetting|set aside|pay no (?:attention|heed) to|do not (?:follow|obey)|don't (?:follow|obey)|stop (?:following|obeying)|no longer (?:follow|obey))`
	// Verbs that also have technical senses ("local rules override previous
	// rules"); they only count with the model's own instructions.
	vWeakOverride = `(?:override|overriding|overrule|bypass|bypassing|neglect|discard|abandon)`
	nModelInstr   = `(?:instructions|prompts?|directives|guidelines|guardrails|programming|system prompt)`
	// Qualifiers that point at the model's own earlier instructions.
	qEarlier = `(?:previous|previously|prior|preceding|above|earlier|foregoing|former|original|initial|old|system|developer|your|any other|all other)`
	// What the model was told.
	nInstr = `(?:instructions?|instruct|directions|rules|prompts?|directives?|guidelines?|guidance|guardrails?|programming|restrictions|constraints|commands?|orders|system prompt)`
	// Secrets worth stealing.
	nSecret = `(?:secrets?|env(?:ironment)?(?: variables| vars)?|\.env(?: files?)?|credentials?|api[ _-]?keys?|access (?:keys?|tokens?)|tokens?|passwords?|private keys?|ssh keys?|cookies|session (?:tokens?|cookies)|aws keys|keys|chat (?:history|logs?)|conversation(?: history)?|system prompt|source code|codebase)`
	// Places outside the machine.
	nRemote = `(?:https?://|ftp://|wss?://|[\pL\pN.-]{1,80}\.(?:com|net|org|io|xyz|ru|cn|info|top|site|online|app|dev|me|tk|co)\b|(?:my|our|this|that|an? (?:external|remote|attacker's|third[ -]party)|the (?:following|attacker's|external|remote)) (?:server|endpoint|url|webhook|e-?mail|address|domain|host|ip)|webhooks?|pastebin|ngrok|requestbin|discord|telegram)`
)

// injectionRuleTable lists the pattern rules. Each id is "category/name".
// Every rule's anchors are literals of which each match contains one; the
// pattern only runs on windows around them.
var injectionRuleTable = []injRule{
	// ---- instruction override ----
	{
		id:       "override/ignore-previous",
		anchors:  []string{"ignor", "disregard", "forget", "overrid", "overrul", "bypass", "neglect", "discard", "abandon", "set aside", "pay no", "do not follow", "do not obey", "don't follow", "don't obey", "stop follow", "stop obey", "no longer follow", "no longer obey"},
		pattern:  `\b` + vOverride + `\b{w3}` + qEarlier + `\b{w2}` + nInstr + `\b|\b` + vOverride + `\b{w2}` + nInstr + `{s}(?:above|before this|given (?:above|before|earlier|previously)|you (?:were|have been) given|from (?:before|earlier)|so far)\b|` + vWeakOverride + `\b{w3}` + qEarlier + `\b{w2}` + nModelInstr + `\b`,
		negation: true,
		needs:    []string{"instruction", "instruct", "direction", "rule", "prompt", "directive", "guideline", "guidance", "guardrail", "programming", "restriction", "constraint", "command", "order"},
	},
	{
		id:       "override/ignore-all-instructions",
		anchors:  []string{"ignor", "disregard", "forget", "overrid", "bypass"},
		pattern:  `\b(?:ignore|disregard|forget|override|bypass)\b{w1}(?:all|any|every|each)\b{w2}(?:instructions|prompts|guidelines|guardrails|restrictions|safety (?:rules|guidelines))\b`,
		negation: true,
		needs:    []string{"all", "any", "every", "each"},
	},
	{
		id:       "override/ignore-above",
		anchors:  []string{"ignor", "disregard", "forget"},
		pattern:  `\b(?:ignore|disregard|forget)\b(?:{s}(?:all|everything|anything|what(?:ever)?)\b(?:{s}(?:that|which|i|you|we|was|were|is|has been|have been|said|written|stated|mentioned|told|given))*)?{s}(?:(?:the )?above|previously|earlier|so far|until now|up to (?:now|this point)|before this (?:line|point|message|sentence))(?:[ ]?(?:[.!,;:\n]|and\b|\z))|(?:ignore|disregard|forget)\b{s}(?:all|everything|anything|whatever)\b{s}(?:that )?you(?:'ve| have| were| had)? (?:been )?(?:told|given|instructed|taught|programmed)\b`,
		negation: true,
		needs:    []string{"above", "previously", "earlier", "so far", "until now", "up to", "before this", "told", "given", "instructed", "taught", "programmed"},
	},
	{
		id:      "override/forget-everything",
		anchors: []string{"forget"},
		pattern: `\bforget\b{s}(?:about )?(?:everything|all(?: of)?(?: that| this)?)\b(?:{w3}(?:you (?:know|knew|were told|have been told|learned|were taught|were instructed)|(?:we|i) (?:discussed|said|told you)|(?:your|the) (?:training|instructions|rules|programming|guidelines)|above|so far|previously)\b|[ ]?(?:[.!:;]|\n|\z))`,
		needs:   []string{"everything", "all"},
	},
	{
		id:      "override/new-instructions",
		anchors: []string{"new ", "real ", "actual ", "true ", "secret ", "hidden ", "revised ", "overriding ", "override ", "updated system"},
		pattern: `(?:new|real|actual|true|secret|hidden|revised|overriding|override|updated system|new system)\s(?:system\s)?(?:instructions?|directives?|orders|prompt)\s?:`,
		needs:   []string{":"},
	},
	{
		id:      "override/from-now-on",
		anchors: []string{"from now on", "starting now", "henceforth", "from this point"},
		pattern: `\b(?:from now on|starting now|henceforth|from this point (?:on|forward))\b{s}(?:,\s)?you(?:'ll| will| are| shall| must| should)?{s}(?:act|respond|reply|answer|behave|pretend|play|role-?play|ignore|disregard|forget|obey|comply|speak|talk|refer to yourself|no longer|not be|have no|never refuse|be (?:a|an|my|called|named|known|free|unrestricted|unfiltered|dan)|(?:only|always) (?:respond|answer|reply|obey|follow|comply))\b`,
		needs:   []string{"you"},
	},
	{
		id:      "override/your-new-task",
		anchors: []string{"your "},
		pattern: `your (?:new|real|actual|true) (?:task|goal|objective|purpose|mission|instructions?|role|job)s? (?:is|are|will be)\b|your (?:task|goal|objective|purpose) is now\b`,
		needs:   []string{"task", "goal", "objective", "purpose", "mission", "instruction", "role", "job"},
	},
	{
		id:      "override/instead-follow",
		anchors: []string{"instead", "rather"},
		pattern: `\b(?:instead|rather)\b{s}(?:you (?:must|should|will) )?(?:follow|obey|execute|do) (?:these|the following|my|only my|only these) (?:new )?(?:instructions|commands|orders|directives)\b`,
		needs:   []string{"instructions", "commands", "orders", "directives"},
	},
	{
		id:      "override/encoded-instructions",
		anchors: []string{"decode", "base64", "rot13"},
		pattern: `\b(?:decode|base64|rot13)\b{w3}(?:and|then)\b{w1}(?:follow|execute|run|obey|do what it says|carry out)\b{w2}(?:it|them|the (?:instructions?|commands?|result)|what it says)\b`,
		needs:   []string{"follow", "execute", "run", "obey", "do what", "carry out"},
	},
	{
		id:      "override/zh",
		anchors: []string{"忽略", "无视", "無視", "忽视", "忽視", "忘记", "忘記", "不要理会", "不要理會", "跳过", "跳過", "不要遵守", "不要遵循"},
		pattern: `(?:忽略|无视|無視|忽视|忽視|忘记|忘記|忘掉|不要理会|不要理會|跳过|跳過|不要遵守|不要遵循)[^。\n]{0,6}(?:之前|以前|先前|上面|以上|上述|前面|此前|原来|原來|原有|原始|所有|你的|系统|系統)[^。\n]{0,6}(?:指令|指示|说明|說明|规则|規則|提示|要求|设定|設定|限制|约束|約束|命令)|(?:忽略|无视|無視|忽视|忽視|忘记|忘記)(?:掉)?(?:以上|上面|上述|之前|前面)(?:的)?(?:所有|全部|一切|内容|內容)`,
	},
	{
		id:      "override/ja",
		anchors: []string{"以前の", "これまでの", "今までの", "前の", "上記の", "先の", "上の", "最初の", "元の", "システムの", "指示を", "命令を", "ルールを", "プロンプトを"},
		pattern: `(?:以前|これまで|今まで|前|上記|先|上|最初|元|システム)の[^。\n]{0,8}(?:指示|命令|指令|ルール|プロンプト|設定|制約|ガイドライン)[^。\n]{0,4}(?:を|は)?[^。\n]{0,4}(?:無視|忘れ|従わな)|(?:指示|命令|ルール|プロンプト)を(?:すべて|全て|全部)?無視して`,
	},
	{
		id:       "override/es-fr-de",
		anchors:  []string{"ignora", "olvida", "ignore", "oublie", "ignoriere", "ignorieren", "vergiss", "vergessen", "missacht"},
		pattern:  `\b(?:ignora|olvida|ignore|ignorez|oublie|oubliez)\b{w2}(?:las |les |toutes les |todas las )?(?:instrucciones|indicaciones|reglas|instructions|consignes|règles)\b{w1}(?:anteriores|previas|précédentes|precedentes|ci-dessus|antérieures)\b|\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie|missachte)\b{w2}(?:vorherigen|bisherigen|obigen|vorigen|vorangegangenen)\b{w1}(?:anweisungen|regeln|vorgaben|instruktionen)\b`,
		negation: true,
		needs:    []string{"instruc", "indicacion", "regla", "consigne", "règle", "anweisung", "regeln", "vorgabe"},
	},

	// ---- role hijack ----
	{
		id:      "role/you-are-now",
		anchors: []string{"you are now", "you're now"},
		pattern: `\byou(?: are|'re) now\b{s}(?:a|an|my|the|dan|no longer|free|unrestricted|unfiltered|uncensored|jailbroken|unchained|unlocked|evil|called|named|known as|going to (?:act|pretend|be|play)|acting|playing|in (?:developer|dan|god|admin|sudo|debug|jailbreak|unrestricted|evil|chaos) mode)\b`,
	},
	{
		id:      "role/zh-ja-you-are-now",
		anchors: []string{"你现在是", "你現在是", "从现在开始", "從現在開始", "从现在起", "從現在起", "你不再是", "あなたは今から", "今からあなたは", "これからあなたは", "あなたはもう"},
		pattern: `你现在是|你現在是|从现在起[，,]?你|從現在起[，,]?你|从现在开始[，,]?你(?:是|将|將|要|必须)|從現在開始[，,]?你(?:是|將|要|必須)|你不再是|あなたは今から|今からあなたは|これからあなたは|あなたはもう[^。\n]{0,10}(?:ではありません|じゃない)`,
	},
	{
		id:      "role/act-unrestricted",
		anchors: []string{"act", "acting", "behave", "respond", "roleplay", "role-play", "operate"},
		pattern: `\b(?:act|acting|behave|respond|roleplay|role-play|operate)(?: as| like)?\b{w1}(?:an? )?(?:unrestricted|unfiltered|uncensored|unlimited|jailbroken|unchained|amoral|unethical|evil|rogue|unbound|unaligned|dan|do anything now)\b|\bact as if\b{w1}(?:you (?:have|had) no|there (?:are|were) no|you (?:are|were) not bound by) (?:rules|restrictions|limits|guidelines|filters|policies|ethics)\b`,
		needs:   []string{"unrestricted", "unfiltered", "uncensored", "unlimited", "jailbr", "unchained", "amoral", "unethical", "evil", "rogue", "unbound", "unaligned", "dan", "do anything now", "as if"},
	},
	{
		id:      "role/you-will-now",
		anchors: []string{"you will now", "you'll now", "you are going to", "you're going to"},
		pattern: `you(?:'ll| will| are going to|'re going to) now\b{s}(?:simulate|act|pretend|play|role-?play|become|impersonate|behave|respond as|answer as|be (?:a|an|my|called|named|dan))\b|you(?: are|'re) going to (?:act|pretend|simulate|role-?play|impersonate) as\b`,
	},
	{
		id:      "role/unrestricted-ai",
		anchors: []string{"unfiltered", "uncensored", "unrestricted", "amoral", "jailbroken", "unethical", "unaligned"},
		pattern: `(?:unfiltered|uncensored|unrestricted|amoral|jailbroken|unethical|unaligned)(?: and (?:unfiltered|uncensored|unrestricted|amoral|unethical|unaligned))? (?:ai|chatbot|assistant|language model|llm|bot|persona)\b`,
	},
	{
		id:      "role/pretend",
		anchors: []string{"pretend", "imagine"},
		pattern: `\b(?:pretend|imagine)\b{s}(?:that )?(?:you(?: are|'re)|to be)\b{w3}(?:unrestricted|unfiltered|uncensored|jailbroken|evil|amoral|dan|not (?:an? )?(?:ai|assistant|bound|restricted|claude|chatgpt|language model)|no longer|free (?:from|of)|without (?:any )?(?:restrictions|rules|limits|filters|guidelines|ethics)|human|a different (?:ai|assistant|model)|an? ai (?:with|that has|without) no|my (?:dead |deceased |late )?(?:grandma|grandmother))\b|\bpretend\b{s}(?:that )?(?:there (?:are|is)|you have) no (?:rules|restrictions|guidelines|filters|limits|policies)\b`,
	},
	{
		id:      "role/developer-mode",
		anchors: []string{"you are", "you're", "act", "respond", "answer", "stay", "remain", "simulate", "behave", "pretend", "developer mode", "dev mode"},
		pattern: `\b(?:you(?: are|'re)(?: now)?(?: in)?|act|respond|answer|stay|remain|simulate|behave|pretend to be in)\b{w2}(?:developer|dev) mode\b|\b(?:developer|dev) mode (?:enabled|activated|is (?:now )?(?:on|enabled|active))\b`,
		unless:  `\b(?:chrome|extensions?|android|ios|browser|device|phone|windows|macos|toggle|settings|firefox|edge|safari|usb|xcode|vscode|os)\b`,
		needs:   []string{" mode"},
	},
	{
		id:      "role/special-mode",
		anchors: []string{"enable", "enter", "activate", "switch to", "turn on", "unlock", "you are in", "you're in"},
		pattern: `\b(?:enable|enter|activate|switch to|turn on|unlock|you are in|you're in)\b{w1}(?:dan|god|jailbreak|jailbroken|unrestricted|evil|chaos|uncensored|unfiltered) mode\b`,
		needs:   []string{" mode"},
	},
	{
		id:      "role/jailbreak",
		anchors: []string{"jailbr", "you are", "you're", "as a", "as an", "this is a", "act as a", "become a", "[jailbr", "越狱模式", "越獄模式"},
		pattern: `jailbr(?:eak|oken)(?:ed)? (?:mode|prompt|enabled|activated)\b|(?:you(?: are|'re)(?: now)?|as an?|this is an?|act as an?|become an?) jailbr(?:oken|eak)\b|\[jailbr(?:eak|oken)\]|jailbreak (?:the|this|your) (?:ai|model|assistant|llm|system|chatbot)\b|越狱模式|越獄模式`,
		needs:   []string{"jailbr", "越狱", "越獄"},
	},
	{
		id:      "role/dan",
		anchors: []string{"do anything now", "you are", "you're", "act as", "acting as", "pretend to be", "become", "you will be", "dan"},
		pattern: `do anything now\b|(?:you are|you're|act as|acting as|pretend to be|become|you will be) dan\b|dan mode\b|dan\s?:\s?(?:i|sure|ok|as)\b`,
		needs:   []string{"dan", "do anything now"},
	},
	{
		id:      "role/no-restrictions",
		anchors: []string{"you", "without", "no", "free", "ignor", "bypass"},
		pattern: `you(?: are|'re|'ll be| will be)? (?:not|no longer|never) (?:bound|restricted|limited|constrained) by\b{w2}(?:rules|restrictions|guidelines|policies|filters|ethics|principles|content polic(?:y|ies))\b|(?:without|no|free (?:of|from)|ignore|ignoring|bypass|bypassing)\b{w1}(?:ethical|moral|safety|content|openai|anthropic)\b{w1}(?:restrictions|guidelines|filters|limitations|constraints|policies|principles|boundaries)\b`,
		needs:   []string{"bound by", "restricted by", "limited by", "constrained by", "ethical", "moral", "safety", "content", "openai", "anthropic"},
	},
	{
		id:      "role/stay-in-character",
		anchors: []string{"stay", "remain", "keep", "always stay", "never break"},
		pattern: `\b(?:stay|remain|keep|always stay) in character\b|\bnever break character\b`,
		unless:  `\b(?:npc|game|story|novel|fiction|player|dialogue)s?\b`,
		needs:   []string{"character"},
	},

	// ---- fake turns and chat-template tokens ----
	{
		id:      "turn/chat-template-token",
		anchors: []string{"<|", "<start_of_turn>", "<end_of_turn>"},
		pattern: `<\|(?:im_start|im_end|im_sep|endoftext|system|user|assistant|begin_of_text|end_of_text|start_header_id|end_header_id|eot_id|eom_id|start_of_turn|end_of_turn|fim_prefix|fim_suffix|fim_middle)\|>|<(?:start|end)_of_turn>`,
	},
	{
		id:      "turn/llama-tags",
		anchors: []string{"[inst]", "[/inst]", "<<sys>>", "<</sys>>"},
		pattern: `\[/?inst\]|<</?sys>>`,
	},
	{
		id:      "turn/role-heading",
		anchors: []string{"system", "assistant", "human", "instruction"},
		pattern: `(?:system|assistant|human|instruction)(?: prompt| message)?(?:\s?:|#{2,})`,
		line:    `[^\pL\pN\n]{0,2}#{1,6}\s?`,
	},
	{
		id:      "turn/system-label",
		anchors: []string{"system"},
		pattern: `system(?: (?:message|prompt|note|override|instructions?|update|alert|notice|administrator|admin))?[\])]?\s?:\s?(?:you|your|ignore|disregard|forget|from now on|new|the (?:user|assistant|ai|model)|assistant|ai|do not|don't|always|never|override|as of now|important)\b`,
		line:    `[^\pL\pN\n]{0,3}[\[(]?`,
	},
	{
		id:      "turn/system-tag",
		anchors: []string{"<system", "</system", "</user", "</human", "<sys>", "</sys>"},
		pattern: `</?system(?:[_ -]?(?:prompt|message|instructions?))?>|</?sys>|</(?:user|human)(?:[_ -]?(?:input|query|message|data|request))?>`,
	},
	{
		id:      "turn/human-line",
		anchors: []string{"human"},
		pattern: `human\s?:\s?\S`,
		line:    `[^\pL\pN\n]{0,3}`,
	},
	{
		id:      "turn/assistant-compliance",
		anchors: []string{"assistant", "ai", "chatgpt", "claude", "gpt", "model", "bot"},
		pattern: `(?:assistant|ai|chatgpt|claude|gpt|model|bot)\s?:\s?(?:sure|ok|okay|certainly|of course|absolutely|understood|i will|i'll|i can|i understand|as dan|here (?:is|are)|no problem|yes)\b`,
		line:    `[^\pL\pN\n]{0,3}`,
	},

	// ---- exfiltration and remote execution ----
	{
		id:       "exfil/send-secrets",
		anchors:  []string{"send", "post", "upload", "exfiltrat", "transmit", "forward", "leak", "email", "e-mail", "submit", "copy", "write", "pipe", "share", "paste", "include", "append", "attach", "encode"},
		pattern:  `\b(?:send|post|upload|exfiltrate|transmit|forward|leak|e-?mail|submit|copy|write|pipe|share|paste|include|append|attach|encode)\b{w3}(?:all|your|every|any|the user's|user's|the contents of|contents of|these|those|my)\b{w3}` + nSecret + `\b[^\n]{0,80}?\b(?:to|into|at|via|using|on)\b{w2}` + nRemote,
		negation: true,
		unless:   `\b(?:secrets? manager|vault|keychain|key vault|kms|secret store)\b`,
		maxLen:   600,
		needs:    []string{"secret", "env", "credential", "key", "token", "password", "cookie", "session", "chat", "conversation", "prompt", "source code", "codebase"},
	},
	{
		id:       "exfil/secret-then-send",
		anchors:  []string{"api_key", "api key", "apikey", "api-key", "secret", "token", "password", "credential", ".env", "environment variable", "env var", "ssh key", "id_rsa", "private key"},
		pattern:  `(?:api[_ -]?key|apikey|secret|token|password|credential|\.env|environment variable|env var|ssh key|id_rsa|private key)`,
		tail:     `(?:send|post|upload|exfiltrate|transmit|forward|leak|e-?mail|submit|pipe)\b(?: (?:it|them|this|that|these|those|the (?:value|values|result|results|output|contents?)))?\s(?:to|into|at|via)\b{w2}` + nRemote,
		maxLen:   400,
		negation: true,
		unless:   `\b(?:secrets? manager|vault|keychain|key vault|kms|secret store)\b`,
		needs:    []string{"send", "post", "upload", "exfiltrat", "transmit", "forward", "leak", "email", "e-mail", "submit", "pipe"},
	},
	{
		id:       "exfil/shell",
		anchors:  []string{"env", "printenv", "cat", "curl", "wget"},
		pattern:  `(?:env|printenv|cat\b[^\n|;]{0,80}(?:\.env|id_rsa|id_ed25519|credentials|\.netrc|\.npmrc|\.pgpass|passwd|shadow|\.git-credentials|\.aws|\.ssh)\S{0,40})\s?\|\s?(?:base64\s?\|\s?)?(?:curl|wget|nc|ncat|netcat|socat)\b|(?:curl|wget)\b[^\n]{0,200}?(?:\$\((?:env|printenv|cat\b[^)]{0,80})\)|\x60(?:env|printenv|cat\b[^\x60]{0,80})\x60|(?:-d|--data(?:-binary|-raw|-urlencode)?|-f|--form|-t|--upload-file|--post-file)\s?['"]?[\pL_-]{0,20}=?@?\s?['"]?(?:~|\$home)?/?[^\s'"]{0,80}(?:\.env|id_rsa|id_ed25519|credentials|\.netrc|\.npmrc|\.ssh/|\.aws/|/etc/passwd|/etc/shadow)\b)`,
		negation: true,
		needs:    []string{"|", "$(", "`", "@"},
	},
	{
		id:       "exfil/curl-pipe-shell",
		anchors:  []string{"curl", "wget", "iwr", "invoke-webrequest", "irm", "invoke-restmethod", "sh ", "bash ", "zsh "},
		pattern:  `(?:curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod)\b[^\n|]{0,300}\|\s?(?:sudo\s(?:-\S{1,10}\s){0,3})?(?:(?:ba|z|da|k|fi|c|tc)?sh|iex|invoke-expression|python3?|perl|ruby|node)\b|(?:ba|z)?sh\s(?:-c\s)?["']?(?:\$\(|<\()\s?(?:curl|wget)\b`,
		negation: true,
		needs:    []string{"|", "$(", "<("},
	},
	{
		id:       "exfil/reveal-prompt",
		anchors:  []string{"print", "reveal", "show", "output", "repeat", "display", "dump", "leak", "tell me", "give me", "send me", "write out", "disclose", "expose", "recite", "spell out", "paste", "share", "return", "list", "translate", "quote", "reply with", "respond with", "answer with", "begin with", "start with", "what are", "what were", "what is"},
		pattern:  `(?:print|reveal|show|output|repeat|display|dump|leak|tell me|give me|send me|write out|disclose|expose|recite|spell out|paste|share|return|list|translate|quote|(?:reply|respond|answer|begin|start) with)\b{w1}(?:your|its|the assistant's|the model's|the ai's)\b{w2}(?:(?:system |initial |original |hidden |secret |internal |developer |full |entire |complete |exact |verbatim |first )*(?:prompt|instructions|system message)|(?:system|initial|original|hidden|secret|internal) rules)\b|(?:print|reveal|show|output|repeat|display|dump|leak|disclose|recite)(?:ing)?\b{w1}(?:the )?(?:hidden (?:prompt|instructions)|initial (?:prompt|instructions)|secret instructions|(?:prompt|text|words|instructions) above|everything above)\b|what (?:are|were|is) your (?:system |initial |original |hidden |secret )?(?:prompt|instructions)\b|repeat (?:the|all|every) (?:words|text|sentences|lines|everything) (?:above|before)\b`,
		negation: true,
		needs:    []string{"prompt", "instruction", "system message", "rules", "above"},
	},
	{
		id:      "exfil/reveal-prompt-zh-ja",
		anchors: []string{"显示", "顯示", "输出", "輸出", "打印", "告诉我", "告訴我", "泄露", "洩露", "重复", "重複", "システムプロンプトを"},
		pattern: `(?:显示|顯示|输出|輸出|打印|告诉我|告訴我|泄露|洩露|重复|重複)[^。\n]{0,4}你的[^。\n]{0,4}(?:系统提示|系統提示|初始指令|提示词|提示詞|系统指令|系統指令)|システムプロンプトを(?:表示|教えて|出力|見せ)`,
	},

	// ---- tool abuse ----
	{
		id:       "tool/rm-rf-root",
		anchors:  []string{"rm "},
		pattern:  `\brm\s(?:-[a-z]*r[a-z]*f[a-z]*|-[a-z]*f[a-z]*r[a-z]*|-r\s-f|-f\s-r|--recursive\s--force|--force\s--recursive)(?:\s--no-preserve-root)?\s(?:/|/\*|~/?|~/\*|\$home/?|/(?:etc|usr|home|var|boot|bin|lib|root|sys|opt)/?)(?:\s|\z|[;&|\x60'")])`,
		negation: true,
	},
	{
		id:       "tool/disable-safety",
		anchors:  []string{"disable", "turn off", "deactivate", "bypass", "circumvent", "remove", "ignor", "overrid", "switch off", "get around", "evade"},
		pattern:  `\b(?:disable|turn off|deactivate|bypass|circumvent|remove|ignore|override|switch off|get around|evade)\b{s}(?:your |the |all |any |all of your )?(?:(?:safety|moderation) (?:checks?|filters?|guidelines|protocols|measures|features|settings|mechanisms|rules|restrictions|training|guardrails|systems?|layers?)|(?:safety|moderation)(?:[.!,;:]|\z| and\b| or\b| now\b)|guard ?rails?|content (?:filters?|polic(?:y|ies)|moderation)|ethical (?:guidelines|constraints|restrictions)|censorship|refusals?|safeguards?)`,
		negation: true,
		needs:    []string{"safety", "guard", "content", "moderation", "ethical", "censorship", "refusal", "safeguard"},
	},
	{
		id:       "tool/destructive",
		anchors:  []string{":(", ":()", "mkfs", "dd ", "chmod", "> /dev/sd", ">/dev/sd"},
		pattern:  `:\(\)\s?\{\s?:\s?\|\s?:\s?&\s?\}\s?;\s?:|\bmkfs(?:\.\w{1,10})?\s/dev/|\bdd\b[^\n]{0,80}\bof=/dev/(?:sd|nvme|hd|xvd|vd|disk|mmcblk)|\bchmod\s(?:-r\s)?777\s/(?:\s|\z)|>\s?/dev/sd[a-z]\b`,
		negation: true,
		needs:    []string{":", "/dev/", "777"},
	},

	// ---- concealment ----
	{
		id:      "conceal/hide-from-user",
		anchors: []string{"without", "don't", "do not", "never"},
		pattern: `without (?:telling|informing|notifying|alerting|letting) (?:the |your )?(?:user|human|developer|operator)\b|(?:don't|do not|never) (?:tell|inform|notify|alert|mention (?:this|it) to|reveal (?:this|it) to) (?:the |your )?(?:user|human|developer|operator)\b{w1}(?:about (?:this|it|these|that)|what you(?:'ve| have)? (?:did|done|ran|run|changed|sent|uploaded|executed|accessed|read|installed|deleted)|that you(?:'ve| have)? (?:did|done|ran|run|changed|modified|sent|uploaded|executed|accessed|read|installed|deleted|added))\b`,
		needs:   []string{"user", "human", "developer", "operator"},
		// "Don't change files without telling the user" asks for the
		// opposite of concealment.
		unless: `\b(?:never|don't|do not|must not|mustn't|should not|shouldn't|cannot|can't|avoid|no)\b[^.!?\n]{0,60}without (?:telling|informing|notifying|alerting|letting)`,
	},
	{
		id:      "conceal/covert-action",
		anchors: []string{"secretly", "covertly", "silently", "quietly"},
		pattern: `(?:secretly|covertly)\b{w1}(?:send|upload|post|exfiltrate|transmit|copy|forward|run|execute|install|download|modify|delete|add|insert|include|change)\b|(?:silently|quietly)\b{w1}(?:send|upload|post|exfiltrate|transmit|forward)\b`,
	},
}
