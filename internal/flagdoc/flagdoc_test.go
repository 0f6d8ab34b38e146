package flagdoc

import (
	"flag"
	"testing"
	"time"
)

func TestTableAndReplace(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Duration("wait", 2*time.Second, "how long to wait | at most")
	fs.String("name", "", "a `label` for\nthe run")
	fs.Bool("dry-run", false, "change nothing")
	want := "| flag | default | meaning |\n| --- | --- | --- |\n" +
		"| `-dry-run` | `false` | change nothing |\n" +
		"| `-name` | – | a label for the run |\n" +
		"| `-wait` | `2s` | how long to wait \\| at most |\n"
	if got := Table(fs); got != want {
		t.Fatalf("Table:\n%s\nwant:\n%s", got, want)
	}
	doc := "# x\n\n" + Begin("cmd/x") + "\n| old |\n" + End + "\n\nafter\n" + Begin("cmd/y") + "\n| y |\n" + End + "\n"
	got, err := Replace([]byte(doc), "cmd/x", "| new |\n")
	if err != nil {
		t.Fatal(err)
	}
	if wantDoc := "# x\n\n" + Begin("cmd/x") + "\n| new |\n" + End + "\n\nafter\n" + Begin("cmd/y") + "\n| y |\n" + End + "\n"; string(got) != wantDoc {
		t.Fatalf("Replace:\n%s\nwant:\n%s", got, wantDoc)
	}
	if _, err := Replace([]byte(doc), "cmd/z", ""); err == nil {
		t.Fatal("Replace without the markers: no error")
	}
}
