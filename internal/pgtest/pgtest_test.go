package pgtest

import (
	"strings"
	"testing"
)

func TestStart_aClusterThatAnswersAndStops(t *testing.T) {
	c := Start(t)
	out, err := c.Psql("SELECT 40 + 2")
	if err != nil || out != "42" {
		t.Fatalf("SELECT 40 + 2: %q, %v", out, err)
	}
	if out, err := c.Psql("SHOW listen_addresses"); err != nil || out != "127.0.0.1" {
		t.Errorf("listen_addresses %q, %v: the cluster must listen on loopback only", out, err)
	}
	if !strings.Contains(c.DSN, "127.0.0.1") {
		t.Errorf("DSN %s", c.DSN)
	}
}

func TestStart_twoClustersSideBySide(t *testing.T) {
	a, b := Start(t), Start(t)
	if a.Port == b.Port {
		t.Fatal("two clusters on one port")
	}
	for _, c := range []*Cluster{a, b} {
		if out, err := c.Psql("SELECT 1"); err != nil || out != "1" {
			t.Errorf("port %d: %q, %v", c.Port, out, err)
		}
	}
}
