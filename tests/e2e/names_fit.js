() => {
  // The names on the seats' plates and under the lift's cards that do not fit: a word
  // broken across lines, or a word wider than its box (sticking out of it).
  const unfit = [];
  for (const el of document.querySelectorAll('.seat-name, .slot-name')) {
    const box = el.closest('.plate, .me-plate') || el;
    if (box.scrollWidth > box.clientWidth + 1) unfit.push(`${el.textContent} (too wide)`);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.sr-only')) continue;
      const re = /\S+/g;
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        // A soft hyphen is where a catalog lets a long word break.
        if (tops.size > 1 && !m[0].includes('\u00ad')) unfit.push(m[0]);
      }
    }
  }
  return unfit;
}
