// Package sanitize checks text that agents or files hand to innate-mcp before
// it is stored or sent to a remote embedder.
//
// Two independent checks are offered:
//
//   - [Injection] and [Injections] look for prompt-injection instructions:
//     instruction overrides, role hijacks, fake system or assistant turns and
//     chat-template tokens, exfiltration and remote-execution requests, tool
//     abuse, concealment, and hidden-text tricks (bidi overrides, Unicode tag
//     characters, zero-width runs, instructions in HTML comments), in English
//     plus common Chinese, Japanese, Spanish, French and German phrasings.
//     Text is normalised first (NFKC-like folding of full-width and
//     mathematical letters, common Cyrillic and Greek look-alikes, lower case,
//     zero-width characters stripped, whitespace collapsed) so spacing, case
//     and invisible-character tricks do not evade the rules. Reported spans are
//     byte offsets into the original text.
//   - [Redact] replaces secrets (cloud and SaaS API keys, tokens, JWTs,
//     private key blocks, passwords in assignments, URLs and Authorization
//     headers) with a placeholder such as "[REDACTED:github-token]".
//
// The rules are data built once; every function is pure, deterministic and
// safe for concurrent use. All matching uses RE2 (package regexp) on bounded
// windows around literal anchors, so run time is linear in the input.
package sanitize
