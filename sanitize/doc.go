// Package sanitize checks text that agents or files hand to innate-mcp before
// it is stored or sent to a remote embedder.
//
// Two independent checks are offered; callers run [CheckInjection] (or
// [Injection]) on the text as given, reject it on a finding, then store or
// embed the output of [Redact].
//
//   - [Injection], [Injections] and [CheckInjection] look for prompt-injection
//     instructions: instruction overrides ("ignore all previous
//     instructions", "new instructions:", "from now on you will"), role
//     hijacks ("you are now DAN", "act as an unrestricted AI", developer or
//     jailbreak mode), fake system or assistant turns and chat-template
//     tokens (<|im_start|>, [INST], <<SYS>>, "### System:", "System: you",
//     <system>, "Human:" at a line start), exfiltration and remote execution
//     (sending secrets or .env files to a URL, curl ... | sh, revealing the
//     system prompt), tool abuse (rm -rf /, disabling safety checks),
//     concealment ("without telling the user") and hidden text (bidi
//     overrides, Unicode tag characters, zero-width runs, instructions to an
//     AI inside HTML comments), in English plus common Chinese, Japanese,
//     Spanish, French and German phrasings. Text is normalised first
//     (NFKC-like folding of full-width, mathematical and circled letters,
//     common Cyrillic and Greek look-alikes, lower case, zero-width and
//     format characters stripped, whitespace collapsed) so spacing, case and
//     invisible-character tricks do not evade the rules. Reported spans are
//     byte offsets into the original text.
//
//     Beyond these phrases, an intent screen reads what each sentence
//     asks the agent to do, as roles (an action, its object, where it
//     goes, the words that negate or narrow it) rather than as fixed
//     wording, and flags requests that turn the agent against its user:
//     sending credentials, credential files, the environment or the
//     conversation to a place outside the machine (in prose or as a shell
//     pipeline); carrying data out in an image or link URL (a {secret}
//     placeholder, a variable or a command substitution in its query);
//     decoding something and running it (base64 -d | sh,
//     exec(b64decode(...)), "decode this and run it"); hiding the text
//     itself ("never mention this lesson", "keep this rule secret");
//     approving changes without review or switching off the checks on the
//     agent (branch protection, security alerts, audit logs); and
//     reporting success whatever happened. A request under negation
//     ("never upload .env to a paste site") or narrowed to a harmless
//     scope ("skip review for typo fixes") passes.
//
//     Rules are written not to fire on ordinary rule files for coding
//     agents: "ignore files in node_modules", "you are now able to use
//     generics", "act as a reviewer", "you are an expert Go engineer",
//     "enable developer mode in chrome://extensions" and negated phrases
//     ("never reveal your system prompt", "do not run rm -rf /") pass.
//     Deliberately flagged even in honest files: installer one-liners that
//     pipe a download into a shell (curl ... | sh), chat-template tokens
//     quoted in documentation, and text that discusses injection phrases
//     verbatim. A lesson should not carry any of these.
//
//   - [Redact] replaces secrets (cloud and SaaS API keys, tokens, JWTs,
//     private key blocks, passwords in assignments, URLs and Authorization
//     headers) with a placeholder such as "[REDACTED:github-token]". See
//     [Redact] for what counts as a placeholder rather than a secret.
//     [RedactJSON] does the same to JSON text and keeps it valid JSON;
//     [NewRedactHandler] applies Redact to every slog record.
//
// The rules are data built once on first use; every function is pure,
// deterministic and safe for concurrent use. Matching finds all rule
// anchors in one Aho-Corasick pass, then runs each rule's RE2 expression
// anchored at its hits, so run time is linear in the input.
package sanitize
