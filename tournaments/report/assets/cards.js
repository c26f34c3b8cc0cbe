/* cards.js: the DOM helpers and the card drawing that report.html's hand browser and the
   browser game (webplay) share. Plain ES2020, no libraries. A Lith card is {name, rank,
   suits}; a Gendeneía card {name, number, value, suits}; a missing card draws face down (Lith)
   or as an empty slot (Gendeneía). Text goes in through textContent, never as HTML. */
const DecktetCards = (function () {
  'use strict';

  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    if (props) {
      for (const k of Object.keys(props)) {
        const v = props[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === 'class') e.className = v;
        else if (k === 'text') e.textContent = v;
        else if (k === 'style') Object.assign(e.style, v);
        else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v === true ? '' : String(v));
      }
    }
    add(e, kids);
    return e;
  }

  function add(parent, kid) {
    if (kid === null || kid === undefined || kid === false) return;
    if (Array.isArray(kid)) for (const k of kid) add(parent, k);
    else if (kid instanceof Node) parent.appendChild(kid);
    else parent.appendChild(document.createTextNode(String(kid)));
  }

  const SUITS = {
    Moons: { glyph: '\u263E', colour: '#5b3f9e' },
    Suns: { glyph: '\u2600', colour: '#c98a00' },
    Waves: { glyph: '\u224B', colour: '#1a6fb5' },
    Leaves: { glyph: '\u2766', colour: '#2b8a3e' },
    Wyrms: { glyph: '\u27C6', colour: '#c0392b' },
    Knots: { glyph: '\u2318', colour: '#8a5a2b' },
    Collars: { glyph: '\u25CE', colour: '#7d3c98' },
    Hope: { glyph: '\u2727', colour: '#148f77' },
    Blood: { glyph: '\u2665', colour: '#c0392b' },
    Quills: { glyph: '\u2712', colour: '#2c3e50' },
    Winds: { glyph: '\u2248', colour: '#2e86c1' },
    Twists: { glyph: '\u221E', colour: '#ca6f1e' },
  };
  const suitInfo = (s) => SUITS[s] || { glyph: s.charAt(0) || '?', colour: '#555' };

  function hiddenCard(mini) {
    return el('div', { class: 'card hidden' + (mini ? ' mini' : ''), 'data-card': 'hidden', title: 'face down' },
      el('div', { class: 'back' }));
  }

  function lithCard(c) {
    if (!c) return hiddenCard(false);
    const colours = c.suits.map((s) => suitInfo(s).colour);
    const stripe = colours.length
      ? `linear-gradient(90deg, ${colours.map((col, i) =>
        `${col} ${(i * 100) / colours.length}%, ${col} ${((i + 1) * 100) / colours.length}%`).join(', ')})`
      : '#bbb';
    const word = !/^\d+$/.test(c.rank);
    return el('div', {
      class: 'card lith' + (c.suits.length ? '' : ' no-suit'),
      'data-card': c.name,
      title: `${c.name}: ${c.rank}${c.suits.length ? ' of ' + c.suits.join(', ') : ''}`,
    },
    el('div', { class: 'stripe', style: { background: stripe } }),
    el('div', { class: 'rank' + (word ? ' word' : '') }, c.rank),
    el('div', { class: 'suits' }, c.suits.map((s) =>
      el('span', { class: 'suit', title: s, style: { color: suitInfo(s).colour } }, suitInfo(s).glyph))),
    el('div', { class: 'cname' }, c.name));
  }

  function genCard(c, mini) {
    if (!c) return el('div', { class: 'card empty' + (mini ? ' mini' : ''), 'data-card': 'none', text: '\u2013' });
    const suit = c.suits[0];
    const info = suitInfo(suit);
    const force = ['Quills', 'Winds', 'Twists'].includes(suit);
    return el('div', {
      class: 'card gen ' + (force ? 'force' : 'choice') + (mini ? ' mini' : ''),
      'data-card': c.name,
      title: `${c.name}: ${c.number} of ${suit}${String(c.value) !== c.number ? ` (counts ${c.value})` : ''}`,
      style: { borderColor: info.colour },
    },
    el('div', { class: 'rank', style: { color: info.colour } }, c.number),
    el('div', { class: 'suits' }, el('span', { class: 'suit', style: { color: info.colour } }, info.glyph),
      mini ? null : el('span', { class: 'suit-name', style: { color: info.colour } }, suit)),
    mini ? null : el('div', { class: 'cname' }, c.name));
  }

  return { el, add, SUITS, suitInfo, hiddenCard, lithCard, genCard };
})();
