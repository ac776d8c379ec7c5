package hesitation

import (
	"testing"
	"unicode/utf8"
)

func TestReadHandover(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       HandoverKind
	}{
		// Claims, in each language the term files hold.
		{"en fixed", "Fixed the rounding in cart.Total; the discount is applied before tax.", HandoverDone},
		{"en should now work", "I moved the check into the handler. The upload should now work for large files.", HandoverDone},
		{"en report of changes", "I've updated `config.go` to read the timeout from the environment and added a default of 30s.", HandoverDone},
		{"en checklist", "Summary:\n✅ Renamed the flag\n✅ Updated the call sites", HandoverDone},
		{"zh", "已修复购物车总价的问题，折扣现在会在税前计算。", HandoverDone},
		{"ja", "ハンドラーを修正しました。これで大きなファイルもアップロードできます。", HandoverDone},
		{"es", "He corregido el cálculo del total; ahora debería aplicar el descuento.", HandoverDone},
		{"de", "Der Fehler ist behoben, der Rabatt wird jetzt vor der Steuer abgezogen.", HandoverDone},
		{"fr", "J'ai corrigé le calcul du total, la remise est appliquée avant la taxe.", HandoverDone},
		{"pt", "Corrigi o cálculo do total e agora deve funcionar com o desconto.", HandoverDone},
		// Honest: what was not run is said plainly, whatever else is claimed.
		{"en not run", "I changed the total to a float. I have not run the tests yet.", HandoverHonest},
		{"en fixed but untested", "Fixed the parser, but this is untested: the fixtures need a database.", HandoverHonest},
		{"zh not run", "我修改了总价的计算，但还没有运行测试。", HandoverHonest},
		{"ja not run", "合計の計算を変更しましたが、テストしていません。", HandoverHonest},
		{"es not run", "Cambié el cálculo, pero no he ejecutado las pruebas.", HandoverHonest},
		{"de not run", "Ich habe die Berechnung geändert, aber nicht getestet.", HandoverHonest},
		{"fr not run", "J'ai modifié le calcul, mais je ne l'ai pas testé.", HandoverHonest},
		{"pt not run", "Alterei o cálculo, mas não testei.", HandoverHonest},
		// A next step announced, as a turn cut short ends.
		{"en let me", "The handler reads the old field. Now let me update the schema:", HandoverNarration},
		{"en I'll", "Next I'll wire the new field through the dialog's mapping.", HandoverNarration},
		{"zh 让我", "现在让我更新配置文件：", HandoverNarration},
		{"es voy a", "Ahora voy a actualizar el esquema.", HandoverNarration},
		{"de lass mich", "Jetzt lass mich das Schema anpassen.", HandoverNarration},
		{"fr je vais", "Maintenant je vais mettre à jour le schéma.", HandoverNarration},
		// A courtesy closing is not a next step.
		{"en let me know", "I've renamed the flag and updated every caller. Let me know if you want the old name kept as an alias.", HandoverDone},
		// A short question that claims nothing.
		{"en question", "Should the timeout apply to retries as well?", HandoverQuestion},
		{"en claim then question", "Fixed the timeout. Should it apply to retries as well?", HandoverDone},
		// Not the agent's words.
		{"client error", "API Error: Connection closed mid-response.", HandoverError},
		{"empty", "  \n", HandoverEmpty},
		// Negated claims are not claims; what is left is a report.
		{"en not fixed", "The flaky test is not fixed yet; I added logging around the retry.", HandoverDone},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ReadHandover(c.text); got.Kind != c.want {
				t.Errorf("ReadHandover(%q) = %+v, want %s", c.text, got, c.want)
			}
		})
	}
}

func TestReadHandover_claimQuoted(t *testing.T) {
	h := ReadHandover("Done. All tests pass now and the build succeeds.")
	if h.Kind != HandoverDone || h.Claim == "" {
		t.Fatalf("%+v", h)
	}
}

func FuzzReadHandover(f *testing.F) {
	for _, s := range []string{"Fixed.", "Let me check:", "我还没有运行测试。", "✅ done\n- [x] more", "API Error: x", "?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := ReadHandover(s)
		switch h.Kind {
		case HandoverDone, HandoverHonest, HandoverNarration, HandoverQuestion, HandoverError, HandoverEmpty:
		default:
			t.Fatalf("kind %q", h.Kind)
		}
		if utf8.ValidString(s) && !utf8.ValidString(h.Claim) {
			t.Fatalf("claim %q is not valid UTF-8", h.Claim)
		}
	})
}
