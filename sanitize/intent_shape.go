package sanitize

import "strings"

// Words recognised by their shape rather than by the vocabulary: the
// paths of credential files, variables named for secrets, and places
// outside the machine (URLs, addresses, host names).

// secretNames are words that make a variable name a secret.
var secretNames = []string{"secret", "password", "passwd", "pwd", "private", "credential", "creds"}

// weakSecretNames make a variable name a credential an API call carries.
var weakSecretNames = []string{"token", "apikey", "api_key", "api-key", "access_key", "auth", "session", "cookie", "key"}

// secretVar reports whether a word is an environment variable or a
// program's reference to one ($GITHUB_TOKEN, ${AWS_SECRET_ACCESS_KEY},
// %API_KEY%, process.env.STRIPE_SECRET, os.environ["DB_PASSWORD"]) named
// for a secret (2) or for a credential an API call carries (1); 0 when it
// is neither.
func secretVar(w string) int {
	name := ""
	switch {
	case strings.Contains(w, "$"):
		k := strings.IndexByte(w, '$')
		name = w[k+1:]
	case strings.Contains(w, "process.env."):
		name = w[strings.Index(w, "process.env.")+len("process.env."):]
	case strings.Contains(w, "environ[") || strings.Contains(w, "getenv("):
		name = w
	case len(w) > 2 && w[0] == '%' && strings.IndexByte(w[1:], '%') > 0:
		name = w[1:]
	default:
		return 0
	}
	name = strings.TrimLeft(name, "{(")
	if strings.HasPrefix(name, "(") || strings.HasPrefix(name, "cat ") {
		return 0
	}
	if end := strings.IndexAny(name, "}) \"'`/:?&=%"); end >= 0 {
		name = name[:end]
	}
	if name == "" {
		return 0
	}
	for _, s := range secretNames {
		if strings.Contains(name, s) {
			return 2
		}
	}
	for _, s := range weakSecretNames {
		if strings.Contains(name, s) {
			return 1
		}
	}
	return 0
}

// sensitivePath reports whether a word names a credential store: SSH and
// cloud credential files, .env files (not their .example templates),
// private key files, password stores and shell histories.
func sensitivePath(w string) bool {
	if len(w) < 4 || !strings.ContainsAny(w, "./_~") || strings.HasSuffix(w, ".pub") {
		return false // not a path, or a public key
	}
	for _, s := range []string{".ssh/", "/.ssh", "~/.ssh", ".aws/credentials", "~/.aws", "/.aws/", ".netrc", ".npmrc",
		".pypirc", ".pgpass", ".git-credentials", ".docker/config.json", ".kube/config", ".vault-token", "/etc/shadow",
		".gnupg", "login.keychain", "wallet.dat", "_history", ".config/gh/hosts", ".azure/", ".config/gcloud",
		"credentials.json", "service-account", "serviceaccount", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519",
		".password-store", ".kdbx", "cookies.sqlite", "/cookies", "login data", "keychain-db"} {
		k := strings.Index(w, s)
		if k < 0 {
			continue
		}
		if strings.HasPrefix(s, "id_") && strings.HasPrefix(w[k+len(s):], ".pub") {
			continue // a public key
		}
		return true
	}
	if w == ".ssh" {
		return true
	}
	// .env, .env.local, .env.production; not .env.example and its kin.
	if k := strings.Index(w, ".env"); k >= 0 && (k == 0 || !isWordByte(w[k-1]) || w[k-1] == '/') {
		rest := w[k+4:]
		if rest == "" || rest[0] == '/' || rest[0] == '"' || rest[0] == '\'' {
			return true
		}
		if rest[0] == '.' {
			switch strings.TrimLeft(rest, ".") {
			case "example", "sample", "template", "dist", "defaults", "default", "schema", "tpl", "in", "d.ts", "ts", "js", "example.local":
				return false
			}
			return true
		}
		return false
	}
	for _, ext := range []string{".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"} {
		if strings.HasSuffix(w, ext) && !strings.HasSuffix(w, ".pub.pem") && !strings.Contains(w, "public") && !strings.Contains(w, "cert") {
			return true
		}
	}
	return false
}

// remoteURL reports whether u (with a scheme) points outside the machine.
func remoteURL(u string) bool {
	k := strings.Index(u, "://")
	if k <= 0 {
		return false
	}
	a := k
	for a > 0 && isSchemeByte(u[a-1]) {
		a--
	}
	switch u[a:k] {
	case "http", "https", "ftp", "ftps", "sftp", "ws", "wss", "s3", "gs", "scp", "ssh", "smb", "dav", "webdav",
		"tcp", "udp", "git", "rsync", "az", "hdfs", "http+unix":
	default:
		return false
	}
	host := u[k+3:]
	if end := strings.IndexAny(host, "/?#"); end >= 0 {
		host = host[:end]
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if strings.HasPrefix(host, "[") {
		if end := strings.IndexByte(host, ']'); end > 0 {
			host = host[1:end]
		}
	} else if c := strings.LastIndexByte(host, ':'); c >= 0 {
		host = host[:c]
	}
	return host != "" && !localHost(host)
}

func localHost(h string) bool {
	switch {
	case h == "localhost" || h == "::1" || h == "0.0.0.0" || h == "127.1" || h == "host.docker.internal":
		return true
	case strings.HasPrefix(h, "127.") || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".local") ||
		strings.HasSuffix(h, ".test") || strings.HasSuffix(h, ".invalid"):
		return true
	}
	return false
}

// tlds are the top-level domains a bare host name is recognised by; file
// extensions that are also top-level domains (.sh, .py, .md, .rs, .go,
// .ts) are left out.
var tlds = map[string]bool{"com": true, "net": true, "org": true, "io": true, "xyz": true, "ru": true, "cn": true,
	"info": true, "top": true, "site": true, "online": true, "app": true, "dev": true, "me": true, "tk": true, "co": true,
	"cc": true, "ly": true, "ee": true, "gg": true, "link": true, "live": true, "pw": true, "su": true, "biz": true,
	"us": true, "uk": true, "de": true, "fr": true, "ws": true, "tech": true, "cloud": true, "store": true, "click": true,
	"st": true, "ml": true, "ga": true, "cf": true, "gq": true, "icu": true, "buzz": true, "fun": true, "space": true,
	"website": true, "host": true, "pro": true, "ai": true, "eu": true, "ch": true, "nl": true, "se": true, "jp": true,
	"kr": true, "br": true, "work": true, "network": true}

// remoteWord reports whether a word names a place outside the machine: a
// URL with a remote host, an e-mail address, an scp target (user@host:),
// an IP address that is not the loopback, or a bare host name.
func remoteWord(w string) bool {
	if strings.Contains(w, "://") {
		k := strings.Index(w, "://")
		a := k
		for a > 0 && isSchemeByte(w[a-1]) {
			a--
		}
		return remoteURL(w[a:])
	}
	w = strings.TrimLeft(w, "@=")
	if at := strings.IndexByte(w, '@'); at > 0 {
		local, host := w[:at], w[at+1:]
		if strings.ContainsAny(local, "/(){}[]") {
			return false
		}
		if c := strings.IndexByte(host, ':'); c > 0 {
			return !localHost(host[:c]) // user@host:path
		}
		dot := strings.LastIndexByte(host, '.')
		return dot > 0 && dot < len(host)-2 && isLetters(host[dot+1:]) && !localHost(host)
	}
	host := w
	if end := strings.IndexAny(host, "/?#"); end >= 0 {
		host = host[:end]
	}
	if c := strings.LastIndexByte(host, ':'); c > 0 {
		host = host[:c]
	}
	if ipv4(host) {
		return !strings.HasPrefix(host, "127.") && host != "0.0.0.0"
	}
	dot := strings.LastIndexByte(host, '.')
	if dot <= 0 || !tlds[host[dot+1:]] {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return !strings.HasPrefix(host, ".") && !strings.Contains(host, "..")
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

func ipv4(h string) bool {
	dots, run := 0, 0
	for i := 0; i < len(h); i++ {
		switch c := h[i]; {
		case c == '.':
			if run == 0 {
				return false
			}
			dots, run = dots+1, 0
		case '0' <= c && c <= '9' && run < 3:
			run++
		default:
			return false
		}
	}
	return dots == 3 && run > 0
}
