package eval

import (
	"bufio"
	"fmt"
	"os"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/split"
)

func TestZZHalves(t *testing.T) {
	f, err := os.Open("/tmp/auditd/repos.txt")
	if err != nil {
		t.Skip()
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fmt.Println("HALF", sc.Text(), split.Half(sc.Text()))
	}
}
