// Layout problems a referee would see, measured in the page (tests/e2e/test_layout.py).
// Returns a list of plain-text problems; an empty list is a page that holds.
(opts) => {
  const problems = [];
  const minTarget = opts.minTarget;
  const visible = (el) => {
    if (!el.isConnected) return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== "hidden" && cs.display !== "none" && !el.closest("[hidden], .sr-only");
  };
  const label = (el) => {
    const id = el.dataset.testid || el.id || "";
    const text = (el.innerText || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${el.tagName.toLowerCase()}${id ? "#" + id : ""}${el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : ""} "${text}"`;
  };

  // 1. The document never scrolls sideways. On a phone a page wider than the screen is
  // zoomed out instead (the layout viewport grows), so compare with the screen's width too.
  const doc = document.scrollingElement;
  if (opts.width && window.innerWidth > opts.width + 1) {
    const wide = [...document.querySelectorAll("body *")].filter((e) => visible(e) && e.getBoundingClientRect().right > opts.width + 1)
      .filter((e) => !e.parentElement || e.parentElement.getBoundingClientRect().right <= opts.width + 1).slice(0, 3).map(label);
    problems.push(`the page is wider than the ${opts.width} px screen (laid out ${window.innerWidth} px wide: ${wide.join("; ")})`);
  }
  if (doc.scrollWidth > doc.clientWidth + 1) {
    const wide = [...document.querySelectorAll("body *")].filter((e) => visible(e) && e.getBoundingClientRect().right > doc.clientWidth + 1)
      .filter((e) => !e.parentElement || e.parentElement.getBoundingClientRect().right <= doc.clientWidth + 1).slice(0, 3).map(label);
    problems.push(`the page scrolls sideways: ${doc.scrollWidth} px wide in a ${doc.clientWidth} px window (${wide.join("; ")})`);
  }

  // 2. Text that overflows its box, unless it is a deliberate ellipsis with the full text in a title.
  const texty = "button, .name, .lbl, .badge, .tok-name, .zone-label, .rl-nm, .decl-who strong, .enc-name, .status, h2, h3, label, .detail, .cost";
  for (const el of document.querySelectorAll(texty)) {
    if (!visible(el)) continue;
    const over = el.scrollWidth > el.clientWidth + 1;
    if (!over) continue;
    const cs = getComputedStyle(el);
    const ellipsis = cs.textOverflow === "ellipsis" && cs.overflowX !== "visible";
    const titled = (el.getAttribute("title") || el.closest("[title]")?.getAttribute("title") || "").length > 0
      || (el.getAttribute("aria-label") || "").length > 0;
    if (ellipsis && titled) continue;
    problems.push(`text overflows its box (${el.scrollWidth} > ${el.clientWidth} px): ${label(el)}`);
  }

  // 3. No word split across lines: each word of a text node lies on one line.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let node;
  const seen = new Set();
  while ((node = walker.nextNode())) {
    const parent = node.parentElement;
    if (!parent || !visible(parent) || parent.closest("svg, script, style, textarea, pre, code, .sr-only")) continue;
    const text = node.textContent;
    // A word is what lies between spaces and hyphens: a line may break after a
    // hyphen ("flat-/footed", "OSE-/DECL-1") as typesetting does, never elsewhere.
    const re = /[^\s\-\u2010\u2011]+/g;
    let m;
    while ((m = re.exec(text))) {
      if (m[0].length < 2) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0.5);
      if (rects.length < 2) continue;
      const tops = new Set(rects.map((r) => Math.round(r.top)));
      // A word whose pieces sit on different lines is broken (ellipsis-clipped text keeps one line).
      if (tops.size > 1) {
        const key = `${label(parent)}:${m[0]}`;
        if (!seen.has(key)) { seen.add(key); problems.push(`word "${m[0]}" breaks across lines in ${label(parent)}`); }
      }
    }
  }

  // 4. Targets: every button and token big enough to hit.
  for (const el of document.querySelectorAll("button, [role=button], .token, select, input[type=radio], input[type=checkbox]")) {
    if (!visible(el) || el.closest(".sr-only")) continue;
    // WCAG 2.5.8's inline exception: a rule chip inside a sentence is sized by its line.
    if (el.matches(".rule") && el.parentElement && el.parentElement.closest(".why, .hint, .prompt, .log-list, p, .q, .cost, small, li, .setting, label, h2, h3, h4, dd, td, th")) continue;
    let r = el.getBoundingClientRect();
    if (el.matches("input[type=radio], input[type=checkbox]")) {
      const lab = el.closest("label");
      if (lab) r = lab.getBoundingClientRect();
    }
    if (r.width + 0.5 < minTarget || r.height + 0.5 < minTarget) {
      problems.push(`target ${Math.round(r.width)}x${Math.round(r.height)} px is under ${minTarget} px: ${label(el)}`);
    }
  }
  // Grid tokens: the tap target is the token's hit area in CSS px.
  for (const el of document.querySelectorAll("svg .tok, svg [data-token]")) {
    if (!visible(el)) continue;
    const hit = el.querySelector(".hit") || el;
    const r = hit.getBoundingClientRect();
    if (r.width + 0.5 < minTarget || r.height + 0.5 < minTarget) {
      problems.push(`grid token ${Math.round(r.width)}x${Math.round(r.height)} px is under ${minTarget} px: ${el.getAttribute("data-token") || el.id}`);
    }
  }

  // 5. Nothing in the field is clipped: each zone, token and the ruler's "now" lies inside its scroll area.
  const inside = (el, box) => {
    const r = el.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const left = b.left - box.scrollLeft, top = b.top - box.scrollTop;
    return r.left >= left - 1 && r.top >= top - 1 && r.right <= left + box.scrollWidth + 1 && r.bottom <= top + box.scrollHeight + 1;
  };
  const scroller = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (/(auto|scroll|hidden|clip)/.test(cs.overflowX + cs.overflowY)) return p;
    }
    return document.scrollingElement;
  };
  for (const el of document.querySelectorAll(".zone, .bands .token, .rl-now, [data-testid=ruler-now-mark]")) {
    if (!visible(el)) continue;
    const box = scroller(el);
    const cs = getComputedStyle(box);
    if (!inside(el, box)) problems.push(`${label(el)} is clipped by its container ${label(box)}`);
    else if (/hidden|clip/.test(cs.overflowX)) {
      const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1) problems.push(`${label(el)} is cut off by ${label(box)} (overflow hidden)`);
    }
  }
  return problems;
}
