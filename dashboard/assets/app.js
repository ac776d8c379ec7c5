// innate-mcp dashboard: the little script it has. "/" focuses the search
// box (when the page has one and no field has the focus); Escape leaves it.
document.addEventListener("keydown", function (e) {
  var q = document.getElementById("q");
  if (!q) return;
  var t = e.target && e.target.tagName;
  if (e.key === "/" && t !== "INPUT" && t !== "TEXTAREA" && t !== "SELECT") {
    e.preventDefault();
    q.focus();
  } else if (e.key === "Escape" && e.target === q) {
    q.blur();
  }
});
