// What test_layout.py measures in the page, with getBoundingClientRect and computed styles.
// Returns the figures and a list of problems (empty when the screen is right).
() => {
  const W = document.documentElement.clientWidth, H = window.innerHeight;
  const problems = [];
  const box = el => el.getBoundingClientRect();
  const r = Math.round;
  const name = el => (typeof el.className === "string" ? el.className : el.tagName)
    + (el.dataset && el.dataset.card ? " " + el.dataset.card : "");
  const shown = el => {
    const b = box(el);
    return b.width > 0 && b.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const inView = (el, what) => {
    const b = box(el);
    if (b.left < -0.5 || b.right > W + 0.5)
      problems.push(`${what} ${name(el)} off the sides: ${r(b.left)}..${r(b.right)} of ${W}`);
    if (b.top < -0.5 || b.bottom > H + 0.5)
      problems.push(`${what} ${name(el)} below the fold: ${r(b.top)}..${r(b.bottom)} of ${H}`);
  };

  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth > W) {
    // Name the deepest elements past the screen's edge: they make it scroll.
    const past = el => box(el).right > W + 0.5;
    const wide = [...document.body.querySelectorAll("*")]
      .filter(el => past(el) && ![...el.children].some(past))
      .slice(0, 3)
      .map(el => `${name(el)} (${r(box(el).right)}): ${el.textContent.trim().slice(0, 40)}`);
    problems.push(`the page scrolls sideways: ${scrollWidth} px wide at ${W}; ${wide.join("; ")}`);
  }
  document.querySelectorAll(".topbar a, .topbar button, .topbar .room-code")
    .forEach(el => inView(el, "header"));

  const felt = document.querySelector(".tabletop");
  const fb = felt && box(felt);
  const cards = [...document.querySelectorAll("[data-hand] .hand-card")];
  let handBottom = 0;
  cards.forEach(c => {
    inView(c, "hand card");
    const b = box(c);
    handBottom = Math.max(handBottom, b.bottom);
    if (fb && (b.left < fb.left - 0.5 || b.right > fb.right + 0.5 || b.bottom > fb.bottom + 0.5))
      problems.push(`hand card ${c.dataset.card} outside the table: ${r(b.left)}..${r(b.right)}`
        + ` down to ${r(b.bottom)}; the table ${r(fb.left)}..${r(fb.right)} down to ${r(fb.bottom)}`);
    // The corner index (rank and suit) is what a player reads: nothing may cover it.
    const x = b.left + Math.min(10, b.width * .18), y = b.top + Math.min(14, b.height * .12);
    const hit = document.elementFromPoint(x, y);
    if (!hit || hit.closest(".hand-card") !== c)
      problems.push(`hand card ${c.dataset.card}: its corner is covered by ${hit ? name(hit) : "nothing"}`);
  });
  document.querySelectorAll("#table .card").forEach(c => {
    if (!shown(c) || c.closest("[data-past], .rules-in-force")) return;
    const b = box(c);
    if (b.left < -0.5 || b.right > W + 0.5) problems.push(`card ${name(c)} off the sides`);
  });
  document.querySelectorAll("[data-action]").forEach(b => { if (shown(b)) inView(b, "decision"); });

  // Text that carries game state: 12 CSS px at least, and never cut short with an ellipsis.
  let smallest = Infinity;
  document.querySelectorAll("#table *, .topbar *").forEach(el => {
    if (el.closest(".sr-only, .card, svg, .rules-in-force:not([open]) dl") || !shown(el)) return;
    const style = getComputedStyle(el);
    if (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth)
      problems.push(`${name(el)} cut short: "${el.textContent.trim()}"`);
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!text) return;
    const size = parseFloat(style.fontSize);
    smallest = Math.min(smallest, size);
    if (size < 12) problems.push(`${name(el)} "${el.textContent.trim().slice(0, 30)}" at ${size} px`);
  });
  return {width: W, height: H, scrollWidth, cards: cards.length, handBottom: r(handBottom),
          smallestText: smallest, problems};
}
