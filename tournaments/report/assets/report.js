/* report.js: the hand browser of report.html (filters, a paginated list and a replayer).
   Plain ES2020, no libraries, nothing fetched. The data is the JSON of #report-data; its
   layout is defined by agents/report/encoding.py. Every text inserted into the page goes
   through textContent or setAttribute, never through HTML parsing. */
(function () {
  'use strict';

  const root = document.getElementById('hand-browser');
  const dataElement = document.getElementById('report-data');
  if (!root || !dataElement) return;

  // ------------------------------------------------------------------------------ helpers

  const { el, add } = DecktetCards;  // cards.js: the DOM helpers and the card drawing

  const intFormat = new Intl.NumberFormat('en-US');
  const decFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  function num(x) {
    return Number.isInteger(x) ? intFormat.format(x) : decFormat.format(x);
  }
  function signed(x) {
    return (x < 0 ? '-' : '+') + num(Math.abs(x)); // "+0" as Python's {:+d}
  }

  function showError(message) {
    root.appendChild(el('p', { class: 'error', text: message }));
  }

  // ------------------------------------------------------------------------------- data

  const tParse0 = performance.now();
  let DATA;
  try {
    DATA = JSON.parse(dataElement.textContent);
  } catch (error) {
    showError('The hand data of this page could not be read: ' + error.message);
    return;
  }
  const LITH = DATA.game === 'lith';
  const GAME_UNIT = LITH ? 'hands' : 'games';
  const AGENTS = (DATA.agents || []).map(String);
  const ALPHABET = String(DATA.alphabet || '');
  const IDX = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) IDX[ALPHABET.charCodeAt(i)] = i;
  const ci = (ch) => (ch === undefined || ch === '.' ? -1 : IDX[ch.charCodeAt(0) & 127]);
  const codeIdx = (code) => (code < 128 ? IDX[code] : -1);

  const PALETTE = [
    '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
    '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf',
  ];
  const agentColour = (a) => PALETTE[((a % PALETTE.length) + PALETTE.length) % PALETTE.length];

  // Short, still distinct, forms of long agent labels (lists and the log): "ppo:runs/x/model.zip"
  // becomes "ppo:…/x"; labels without a path are cut in the middle.
  function shorten(label, room) {
    if (label.length <= room + 2) return label;
    const colon = label.indexOf(':');
    const kind = colon > 0 && colon < 12 ? label.slice(0, colon + 1) : '';
    const pieces = label.slice(kind.length).split('/').filter(Boolean);
    if (pieces.length > 1) {
      if (/^(model|policy|checkpoint|best|final)(\.\w+)?$/i.test(pieces[pieces.length - 1])) pieces.pop();
      pieces[pieces.length - 1] = pieces[pieces.length - 1].replace(/\.(zip|pt|pth|ckpt|json)$/i, '');
      let tail = pieces.pop();
      while (pieces.length && tail.length + pieces[pieces.length - 1].length + 1 <= room) tail = pieces.pop() + '/' + tail;
      if (tail.length > room) tail = '\u2026' + tail.slice(-room);
      return kind + (pieces.length ? '\u2026/' : '') + tail;
    }
    const head = Math.ceil(room / 2);
    return label.slice(0, head) + '\u2026' + label.slice(label.length - (room - head));
  }
  const SHORT = (function () {
    let out = AGENTS.slice();
    for (let room = 16; room <= 80; room += 6) {
      out = AGENTS.map((a) => shorten(a, room));
      if (new Set(out).size === out.length) break;
    }
    return out;
  })();
  const agentName = (a) => (a >= 0 && a < AGENTS.length ? AGENTS[a] : 'agent ' + a);
  const agentShort = (a) => (a >= 0 && a < SHORT.length ? SHORT[a] : 'agent ' + a);

  const { suitInfo } = DecktetCards;
  const suitName = (s) => String(s);  // the data names every suit (tournaments.report.encoding)

  const CARDS = (DATA.cards || []).map((c) => {
    if (LITH) {
      return { name: String(c[0]), rank: String(c[1]), suits: (c[2] || []).map(suitName) };
    }
    const name = String(c[0]);
    return {
      name,
      number: name.slice(0, -1),
      value: Number(c[1]),
      suits: [suitName(c[2])],
    };
  });
  const cardName = (id) => (id >= 0 && id < CARDS.length ? CARDS[id].name : '?');
  const CATEGORIES = (DATA.categories || []).map(String);
  const LOTS = ['Collars', 'Hope', 'Blood'];

  // ------------------------------------------------------------ parsing into typed arrays

  const TEXT = typeof DATA.hands === 'string' ? DATA.hands : '';
  const LINES = TEXT.length ? TEXT.split('\n') : [];
  if (LINES.length && LINES[LINES.length - 1] === '') LINES.pop();
  const N = LINES.length;
  let P = Math.max(1, Number(DATA.players) || 1);
  for (let h = 0; h < Math.min(N, 50); h++) {
    const a = LINES[h].indexOf('|');
    const b = LINES[h].indexOf('|', a + 1);
    if (b - a - 1 > P) P = b - a - 1;
  }

  const F_DEALT = 1, F_BLUFF = 2, F_EXCH = 4, F_WON = 8;
  const seatAgent = new Int16Array(N * P).fill(-1);
  const seatCat = new Int8Array(N * P).fill(-1);
  const seatFlags = new Uint8Array(N * P);
  const handPot = new Float64Array(N);
  const handShowdown = new Uint8Array(N);
  const handTrumped = new Uint8Array(N);
  const handSteps = new Uint16Array(N);
  let potMax = 0;

  function parseLith(h, line) {
    const base = h * P;
    const b1 = line.indexOf('|');
    const b2 = line.indexOf('|', b1 + 1);
    const n = Math.min(P, b2 - b1 - 1);
    for (let s = 0; s < n; s++) seatAgent[base + s] = codeIdx(line.charCodeAt(b1 + 1 + s));
    const b3 = line.indexOf('|', b2 + 1); // dealer
    const b4 = line.indexOf('|', b3 + 1); // dealt
    for (let s = 0; s < n; s++) {
      if (line.charCodeAt(b3 + 1 + 3 * s) !== 46 && b3 + 1 + 3 * s < b4) seatFlags[base + s] = F_DEALT;
    }
    const b5 = line.indexOf('|', b4 + 1); // actions
    let pos = b4 + 1;
    while (pos < b5) {
      if (line.charCodeAt(pos + 1) === 100) { // 'd'
        const s = codeIdx(line.charCodeAt(pos));
        if (s >= 0 && s < n) seatFlags[base + s] |= F_EXCH;
      }
      const comma = line.indexOf(',', pos);
      if (comma < 0 || comma > b5) break;
      pos = comma + 1;
    }
    const b6 = line.indexOf('|', b5 + 1); // exchanges
    const b7 = line.indexOf('|', b6 + 1); // showdown
    handShowdown[h] = b7 > b6 + 1 ? 1 : 0;
    const b8 = line.indexOf('|', b7 + 1); // pots
    let pot = 0;
    pos = b7 + 1;
    while (pos < b8) {
      const gt = line.indexOf('>', pos);
      if (gt < 0 || gt > b8) break;
      pot += parseFloat(line.slice(pos, gt)) || 0;
      let comma = line.indexOf(',', gt);
      if (comma < 0 || comma > b8) comma = b8;
      for (let q = gt + 1; q < comma; q++) {
        const s = codeIdx(line.charCodeAt(q));
        if (s >= 0 && s < n) seatFlags[base + s] |= F_WON;
      }
      pos = comma + 1;
    }
    handPot[h] = pot;
    if (pot > potMax) potMax = pot;
    const b9 = line.indexOf('|', b8 + 1); // net
    const b10 = line.indexOf('|', b9 + 1); // categories
    for (let s = 0; s < n && b9 + 1 + s < b10; s++) {
      const c = line.charCodeAt(b9 + 1 + s);
      if (c !== 46) seatCat[base + s] = codeIdx(c);
    }
    const b11 = line.indexOf('|', b10 + 1); // the demon's coin follows the bluffers
    for (let q = b10 + 1; q < (b11 < 0 ? line.length : b11); q++) { // bluffers
      const s = codeIdx(line.charCodeAt(q));
      if (s >= 0 && s < n) seatFlags[base + s] |= F_BLUFF;
    }
  }

  function parseGendeneia(h, line) {
    const base = h * P;
    const b1 = line.indexOf('|');
    const b2 = line.indexOf('|', b1 + 1);
    const n = Math.min(P, b2 - b1 - 1);
    for (let s = 0; s < n; s++) {
      seatAgent[base + s] = codeIdx(line.charCodeAt(b1 + 1 + s));
      seatFlags[base + s] = F_DEALT;
    }
    const b3 = line.indexOf('|', b2 + 1); // first
    const b4 = line.indexOf('|', b3 + 1); // hands
    const b5 = line.indexOf('|', b4 + 1); // steps
    let steps = 0, trumped = 0;
    let pos = b4 + 1;
    while (pos < b5) {
      let semi = line.indexOf(';', pos);
      if (semi < 0 || semi > b5) semi = b5;
      steps++;
      if (!trumped && line.charCodeAt(pos + 1) === 112) { // 'p': any '-' change is a trump
        let q = line.indexOf(':', pos);
        while (q >= 0 && q < semi) {
          if (line.charCodeAt(q + 1) === 45) { trumped = 1; break; }
          q = line.indexOf(',', q + 1);
        }
      }
      pos = semi + 1;
    }
    handSteps[h] = steps;
    handTrumped[h] = trumped;
    const b6 = line.indexOf('|', b5 + 1); // scores
    const b7 = line.indexOf('|', b6 + 1); // winners
    for (let q = b6 + 1; q < b7; q++) {
      const s = codeIdx(line.charCodeAt(q));
      if (s >= 0 && s < n) seatFlags[base + s] |= F_WON;
    }
  }

  let parseFailures = 0;
  for (let h = 0; h < N; h++) {
    try {
      if (LITH) parseLith(h, LINES[h]);
      else parseGendeneia(h, LINES[h]);
    } catch (error) {
      parseFailures++;
    }
  }
  const parseMs = performance.now() - tParse0;

  // --------------------------------------------------------------------------------- UI

  const tRender0 = performance.now();
  const ui = {};

  function select(id, label, options) {
    const s = el('select', { id, 'aria-label': label });
    for (const [value, text] of options) s.appendChild(el('option', { value, text }));
    return el('label', { class: 'filter' }, el('span', { text: label }), s);
  }

  function buildUI() {
    const intro = el('p', { class: 'hint' });
    const of = Number(DATA.of);
    intro.textContent =
      `${num(N)} ${GAME_UNIT} recorded` +
      (of && of > N ? ` (of ${num(of)} played)` : '') +
      '. Filter them, then click one to replay it step by step (\u2190 \u2192 keys step).';
    root.appendChild(intro);
    if (parseFailures) {
      showError(`${num(parseFailures)} ${GAME_UNIT} could not be read and are left out of the filters.`);
    }

    const legend = el('div', { class: 'legend' });
    AGENTS.forEach((label, a) => {
      legend.appendChild(
        el('span', { class: 'agent-badge', title: label },
          el('span', { class: 'dot', style: { background: agentColour(a) } }), label)
      );
    });
    const suitLegend = el('div', { class: 'legend suits-legend' });
    const suitNames = LITH
      ? ['Moons', 'Suns', 'Waves', 'Leaves', 'Wyrms', 'Knots']
      : ['Collars', 'Hope', 'Blood', 'Quills', 'Winds', 'Twists'];
    for (const s of suitNames) {
      const info = suitInfo(s);
      suitLegend.appendChild(
        el('span', { class: 'suit-key', style: { color: info.colour } },
          el('span', { class: 'glyph' }, info.glyph), s)
      );
    }
    root.appendChild(el('div', { class: 'legends' }, legend, suitLegend));

    // Filters.
    const filters = el('div', { class: 'filters', id: 'filters' });
    filters.appendChild(select('filter-agent', 'agent',
      [['', 'any agent'], ...AGENTS.map((a, i) => [String(i), a])]));
    filters.appendChild(select('filter-seat', 'seat',
      [['', 'any seat'], ...Array.from({ length: P }, (_, s) => [String(s), 'seat ' + s])]));
    if (LITH) {
      filters.appendChild(select('filter-category', 'hand category',
        [['', 'any category'], ...CATEGORIES.map((c, i) => [String(i), c])]));
      filters.appendChild(el('label', { class: 'filter check', title:
        `a bet or raise with showdown equity below ${DATA.bluff_equity}, as tournaments.report.cli counts bluffs` },
        el('input', { type: 'checkbox', id: 'filter-bluff' }), el('span', { text: 'bluffed' })));
      filters.appendChild(select('filter-showdown', 'showdown', [['', 'any'], ['yes', 'yes'], ['no', 'no']]));
      filters.appendChild(el('label', { class: 'filter' }, el('span', { text: 'pot' }),
        el('input', { type: 'number', id: 'filter-pot-min', min: '0', step: 'any', placeholder: 'min', 'aria-label': 'smallest pot' }),
        el('span', { class: 'dash', text: '\u2013' }),
        el('input', { type: 'number', id: 'filter-pot-max', min: '0', step: 'any', placeholder: 'max', 'aria-label': 'largest pot' })));
      filters.appendChild(select('filter-exchanged', 'discarded', [['', 'any'], ['yes', 'yes'], ['no', 'no']]));
    } else {
      filters.appendChild(select('filter-won', 'won', [['', 'any'], ['yes', 'yes'], ['no', 'no']]));
      filters.appendChild(el('label', { class: 'filter check', title: 'a played pair knocked a pair off a lot' },
        el('input', { type: 'checkbox', id: 'filter-trumped' }), el('span', { text: 'a trump happened' })));
    }
    filters.appendChild(el('button', { type: 'button', id: 'filter-reset', class: 'small', text: 'reset' }));
    root.appendChild(filters);
    filters.addEventListener('change', onFilter);
    filters.addEventListener('input', (e) => { if (e.target.type === 'number') onFilter(); });
    document.getElementById('filter-reset').addEventListener('click', () => {
      for (const e of filters.querySelectorAll('select')) e.value = '';
      for (const e of filters.querySelectorAll('input')) {
        if (e.type === 'checkbox') e.checked = false; else e.value = '';
      }
      onFilter();
    });
    ui.filters = filters;

    // List and replayer side by side.
    const grid = el('div', { class: 'browser-grid' });
    const listPane = el('div', { class: 'list-pane' });
    ui.count = el('div', { id: 'match-count', class: 'match-count', 'aria-live': 'polite' });
    ui.prev = el('button', { type: 'button', id: 'page-prev', class: 'small', text: '\u2039 prev' });
    ui.next = el('button', { type: 'button', id: 'page-next', class: 'small', text: 'next \u203A' });
    ui.pageInfo = el('span', { id: 'page-info' });
    ui.prev.addEventListener('click', () => { if (page > 0) { page--; renderList(); } });
    ui.next.addEventListener('click', () => { if ((page + 1) * PAGE < matchCount) { page++; renderList(); } });
    listPane.appendChild(el('div', { class: 'list-head' }, ui.count,
      el('div', { class: 'pager' }, ui.prev, ui.pageInfo, ui.next)));
    ui.netHead = el('th', { class: 'num' });
    const heads = LITH
      ? [el('th', { text: 'hand' }), el('th', { text: 'seats' }), el('th', { class: 'num', text: 'pot' }),
        el('th', { text: 'SD', title: 'went to a showdown' }), el('th', { text: 'bluff', title: 'seats that bluffed' }), ui.netHead]
      : [el('th', { text: 'game' }), el('th', { text: 'seats' }), el('th', { text: 'scores' }),
        el('th', { text: 'winners' }),
        el('th', { text: 'trump', title: 'a played pair trumped pairs off a lot' }), ui.netHead];
    ui.tbody = el('tbody');
    ui.table = el('table', { id: 'hand-list', class: 'hand-list' }, el('thead', null, el('tr', null, heads)), ui.tbody);
    ui.tbody.addEventListener('click', (e) => {
      const row = e.target.closest('tr.hand-row');
      if (row) openHand(Number(row.dataset.index));
    });
    listPane.appendChild(el('div', { class: 'list-scroll' }, ui.table));
    grid.appendChild(listPane);

    const pane = el('div', { class: 'replayer-pane' });
    ui.placeholder = el('p', { class: 'placeholder', text: `Click a ${LITH ? 'hand' : 'game'} in the list to replay it.` });
    pane.appendChild(ui.placeholder);
    pane.appendChild(buildReplayer());
    grid.appendChild(pane);
    root.appendChild(grid);
  }

  function buildReplayer() {
    ui.title = el('h3', { class: 'replayer-title' });
    ui.viewSeat = el('select', { id: 'view-seat', 'aria-label': 'whose view' });
    ui.viewSeat.addEventListener('change', () => {
      if (current) { buildSteps(); renderStep(); }
    });
    const btn = (id, text, title) => el('button', { type: 'button', id, text, title });
    ui.stepStart = btn('step-start', '\u00AB start', 'first step (Home)');
    ui.stepPrev = btn('step-prev', '\u25C0 prev', 'previous step (\u2190)');
    ui.stepNext = btn('step-next', 'next \u25B6', 'next step (\u2192)');
    ui.stepEnd = btn('step-end', 'end \u00BB', 'last step (End)');
    ui.stepStart.addEventListener('click', () => go(0));
    ui.stepPrev.addEventListener('click', () => go(stepIndex - 1));
    ui.stepNext.addEventListener('click', () => go(stepIndex + 1));
    ui.stepEnd.addEventListener('click', () => go(Infinity));
    ui.stepInfo = el('span', { id: 'step-info' });
    ui.stepPhase = el('span', { id: 'step-phase', class: 'phase' });
    ui.pot = el('div', { id: 'pot', class: 'pot' });
    ui.seats = el('div', { class: 'seats' });
    ui.temp = el('div', { class: 'temp-lots' });
    ui.result = el('div', { id: 'result', class: 'result', 'aria-live': 'polite' });
    ui.log = el('ol', { id: 'step-log', class: 'step-log', start: '1' });
    ui.replayer = el('div', { id: 'replayer', class: 'replayer' + (LITH ? ' lith' : ' gendeneia'), hidden: true },
      el('div', { class: 'replayer-head' }, ui.title,
        el('label', { class: 'view' }, el('span', { text: 'view' }), ui.viewSeat)),
      el('div', { class: 'controls' }, ui.stepStart, ui.stepPrev, ui.stepNext, ui.stepEnd, ui.stepInfo, ui.stepPhase),
      el('div', { class: 'felt' }, ui.pot, ui.seats, ui.temp),
      ui.result,
      el('div', { class: 'log-wrap' }, ui.log));
    return ui.replayer;
  }

  // ------------------------------------------------------------------------- filtering

  const PAGE = 50;
  const matches = new Int32Array(N);
  let matchCount = 0;
  let page = 0;
  let subjectAgent = -1, subjectSeat = -1;

  function valueOf(id) {
    const e = document.getElementById(id);
    return e ? e.value : '';
  }
  function checked(id) {
    const e = document.getElementById(id);
    return !!(e && e.checked);
  }
  function numberOf(id) {
    const v = valueOf(id).trim();
    if (v === '') return NaN;
    const x = Number(v);
    return Number.isFinite(x) ? x : NaN;
  }

  function applyFilter() {
    const agentValue = valueOf('filter-agent');
    const seatValue = valueOf('filter-seat');
    const agent = agentValue === '' ? -1 : Number(agentValue);
    const seat = seatValue === '' ? -1 : Number(seatValue);
    subjectAgent = agent;
    subjectSeat = seat;
    let cat = -1, bluff = false, showdown = -1, potMin = NaN, potMax = NaN, exch = -1;
    let won = -1, trumped = false;
    if (LITH) {
      const c = valueOf('filter-category');
      cat = c === '' ? -1 : Number(c);
      bluff = checked('filter-bluff');
      const sd = valueOf('filter-showdown');
      showdown = sd === 'yes' ? 1 : sd === 'no' ? 0 : -1;
      potMin = numberOf('filter-pot-min');
      potMax = numberOf('filter-pot-max');
      const ex = valueOf('filter-exchanged');
      exch = ex === 'yes' ? 1 : ex === 'no' ? 0 : -1;
    } else {
      const w = valueOf('filter-won');
      won = w === 'yes' ? 1 : w === 'no' ? 0 : -1;
      trumped = checked('filter-trumped');
    }
    const hasMin = !Number.isNaN(potMin), hasMax = !Number.isNaN(potMax);
    const perSeat = agent >= 0 || seat >= 0 || cat >= 0 || bluff || exch >= 0 || won >= 0;
    const sLo = seat >= 0 ? seat : 0;
    const sHi = seat >= 0 ? Math.min(seat + 1, P) : P;
    let need = 0, want = 0; // flag mask tests
    if (bluff) { need |= F_BLUFF; want |= F_BLUFF; }
    if (exch >= 0) { need |= F_EXCH; if (exch) want |= F_EXCH; }
    if (won >= 0) { need |= F_WON; if (won) want |= F_WON; }
    let m = 0;
    for (let h = 0; h < N; h++) {
      if (showdown >= 0 && handShowdown[h] !== showdown) continue;
      if (hasMin && handPot[h] < potMin) continue;
      if (hasMax && handPot[h] > potMax) continue;
      if (trumped && !handTrumped[h]) continue;
      if (perSeat) {
        const base = h * P;
        let ok = false;
        for (let s = sLo; s < sHi; s++) {
          const f = seatFlags[base + s];
          if (!(f & F_DEALT)) continue;
          if (agent >= 0 && seatAgent[base + s] !== agent) continue;
          if (cat >= 0 && seatCat[base + s] !== cat) continue;
          if ((f & need) !== want) continue;
          ok = true;
          break;
        }
        if (!ok) continue;
      }
      matches[m++] = h;
    }
    matchCount = m;
    return m;
  }

  // The filters' values as one string: a change event that changes nothing (a number input's
  // change on blur after its input events, say) must not rebuild the list under a click.
  let lastSignature = null;
  function filterSignature() {
    return Array.from(ui.filters.querySelectorAll('select, input'),
      (e) => (e.type === 'checkbox' ? String(e.checked) : e.value)).join('\u0001');
  }

  function onFilter() {
    const signature = filterSignature();
    if (signature === lastSignature) return;
    lastSignature = signature;
    applyFilter();
    page = 0;
    renderList();
  }

  // ------------------------------------------------------------------------------ list

  function seatBadges(agents) {
    const wrap = el('span', { class: 'seat-badges' });
    const compact = agents.length > 2;
    agents.forEach((a, s) => {
      const title = `seat ${s}: ${agentName(a)}`;
      const cls = 'agent-badge' + (compact ? ' compact' : '') +
        (subjectSeat === s || (subjectSeat < 0 && subjectAgent === a) ? ' subject' : '');
      wrap.appendChild(el('span', { class: cls, title },
        el('span', { class: 'dot', style: { background: agentColour(a) } }, compact ? String(s) : null),
        compact ? null : agentShort(a)));
    });
    return wrap;
  }

  function subjectSeats(agents) {
    const out = [];
    agents.forEach((a, s) => {
      if ((subjectAgent < 0 || a === subjectAgent) && (subjectSeat < 0 || s === subjectSeat)) out.push(s);
    });
    return out;
  }

  function netCell(values, agents, label) {
    // values: per-seat net (Lith) or score (Gendeneía); the subject's, else the best seat.
    if (subjectAgent >= 0 || subjectSeat >= 0) {
      const seats = subjectSeats(agents);
      if (!seats.length) return el('td', { class: 'num muted', text: '\u2013' });
      const total = seats.reduce((t, s) => t + (values[s] || 0), 0);
      const cls = 'num' + (LITH ? (total > 0 ? ' pos' : total < 0 ? ' neg' : '') : '');
      return el('td', { class: cls, text: LITH ? signed(total) : num(total) });
    }
    return el('td', { class: 'num', text: label });
  }

  function renderList() {
    const pages = Math.max(1, Math.ceil(matchCount / PAGE));
    if (page >= pages) page = pages - 1;
    if (page < 0) page = 0;
    ui.count.textContent = `${num(matchCount)} of ${num(N)} ${GAME_UNIT}`;
    ui.pageInfo.textContent = matchCount ? `page ${num(page + 1)} of ${num(pages)}` : 'no matches';
    ui.prev.disabled = page <= 0;
    ui.next.disabled = page >= pages - 1;
    const who = subjectAgent >= 0 ? agentShort(subjectAgent) : subjectSeat >= 0 ? 'seat ' + subjectSeat : '';
    const whoFull = (subjectAgent >= 0 ? agentName(subjectAgent) : '') +
      (subjectSeat >= 0 ? `${subjectAgent >= 0 ? ' at ' : ''}seat ${subjectSeat}` : '');
    ui.netHead.textContent = LITH ? (who ? 'net' : 'winner') : (who ? 'score' : 'lowest');
    ui.netHead.title = LITH
      ? (who ? `chips won or lost by ${whoFull}` : 'the seat that won the most, and its net')
      : (who ? `the score of ${whoFull}` : 'the lowest (winning) score');
    const rows = [];
    const end = Math.min(matchCount, (page + 1) * PAGE);
    for (let k = page * PAGE; k < end; k++) {
      const h = matches[k];
      try { rows.push(LITH ? lithRow(h) : genRow(h)); } catch (error) { /* unreadable line: skipped */ }
    }
    if (!rows.length) {
      rows.push(el('tr', { class: 'empty' }, el('td', { colspan: '6', text: `No ${GAME_UNIT} match these filters.` })));
    }
    ui.tbody.replaceChildren(...rows);
    if (ui.table.parentElement) ui.table.parentElement.scrollTop = 0;
  }

  function lithRow(h) {
    const f = LINES[h].split('|');
    const agents = Array.from(f[1], ci);
    const net = f[8] ? f[8].split(',').map(Number) : [];
    let best = -1;
    net.forEach((x, s) => { if (best < 0 || x > net[best]) best = s; });
    const bluffers = Array.from(f[10] || '', ci);
    const demon = f[11] === 'h' ? 'heads' : f[11] === 't' ? 'tails' : '';
    const row = el('tr', { class: 'hand-row' + (current && current.index === h ? ' selected' : ''),
      'data-index': String(h), 'data-id': f[0], tabindex: '0' },
      el('td', { class: 'id', text: f[0] }),
      el('td', null, seatBadges(agents)),
      el('td', { class: 'num', text: num(handPot[h]) }),
      el('td', { class: handShowdown[h] ? 'yes' : 'no', text: handShowdown[h] ? 'y' : 'n' }),
      el('td', { text: bluffers.length ? bluffers.join(', ') : '' }),
      netCell(net, agents, best >= 0 ? `S${best} ${signed(net[best])}` : ''));
    return row;
  }

  function genRow(h) {
    const f = LINES[h].split('|');
    const agents = Array.from(f[1], ci);
    const scores = f[5] ? f[5].split(',').map(Number) : [];
    const winners = Array.from(f[6] || '', ci);
    const low = scores.length ? Math.min(...scores) : 0;
    return el('tr', { class: 'hand-row' + (current && current.index === h ? ' selected' : ''),
      'data-index': String(h), 'data-id': f[0], tabindex: '0',
      title: `${num(handSteps[h])} steps${f[7] ? '; ' + f.slice(7).join('|') : ''}` },
      el('td', { class: 'id', text: f[0] }),
      el('td', null, seatBadges(agents)),
      el('td', { class: 'scores', text: scores.join(', ') }),
      el('td', { text: winners.map((s) => 'S' + s).join(', ') }),
      el('td', { class: handTrumped[h] ? 'yes' : 'no', text: handTrumped[h] ? 'y' : 'n' }),
      netCell(scores, agents, scores.length ? num(low) : ''));
  }

  // -------------------------------------------------------------------------- decoding

  function decodeLith(h) {
    const f = LINES[h].split('|');
    const agents = Array.from(f[1], ci);
    const n = agents.length;
    const dealt = [];
    for (let s = 0; s < n; s++) {
      const t = (f[3] || '').substr(3 * s, 3);
      dealt.push(t.length === 3 && t !== '...' ? Array.from(t, ci) : null);
    }
    const actions = f[4] ? f[4].split(',').map((t) => {
      const a = { seat: ci(t[0]), kind: t[1], chips: 0, amount: 0, card: -1 };
      if (a.kind === 'd') a.card = ci(t[2]);
      else if (a.kind !== 'x') {
        const rest = t.slice(2);
        const slash = rest.indexOf('/');
        a.chips = parseFloat(slash < 0 ? rest : rest.slice(0, slash)) || 0;
        a.amount = slash < 0 ? a.chips : parseFloat(rest.slice(slash + 1)) || 0;
      }
      return a;
    }) : [];
    const exchanges = (f[5] || '').split(';').map((r) => {
      const moves = [], bottom = [];
      if (r) {
        for (const t of r.split(',')) {
          if (t[0] === '_') bottom.push(...Array.from(t.slice(1), ci));
          else if (t.length >= 3) moves.push({ to: ci(t[0]), card: ci(t[1]), from: ci(t[2]) });
        }
      }
      return { moves, bottom };
    });
    const showdown = f[6] ? f[6].split(',').map((t) => ({
      seat: ci(t[0]), cards: [ci(t[1]), ci(t[2]), ci(t[3])], cat: t.length > 4 ? ci(t[4]) : -1,
    })) : [];
    const pots = f[7] ? f[7].split(',').map((t) => {
      const gt = t.indexOf('>');
      return { amount: parseFloat(t.slice(0, gt)) || 0, winners: Array.from(t.slice(gt + 1), ci) };
    }) : [];
    const net = f[8] ? f[8].split(',').map(Number) : agents.map(() => 0);
    const categories = Array.from(f[9] || '', ci);
    const bluffers = Array.from(f[10] || '', ci);
    const demon = f[11] === 'h' ? 'heads' : f[11] === 't' ? 'tails' : '';
    // The ante: what a seat that won nothing lost beyond its chips put in.
    const chips = agents.map(() => 0);
    for (const a of actions) if (a.seat >= 0 && a.seat < n) chips[a.seat] += a.chips;
    const winners = new Set();
    for (const p of pots) for (const w of p.winners) winners.add(w);
    let ante = null;
    for (let s = 0; s < n; s++) {
      if (dealt[s] && !winners.has(s) && Number.isFinite(net[s])) { ante = -net[s] - chips[s]; break; }
    }
    if (ante === null) {
      const dealtCount = dealt.filter(Boolean).length || 1;
      const potTotal = pots.reduce((t, p) => t + p.amount, 0);
      ante = (potTotal - chips.reduce((t, c) => t + c, 0)) / dealtCount;
    }
    if (!Number.isFinite(ante) || ante < 0) ante = 0;
    return { index: h, id: f[0], agents, n, dealer: ci(f[2]), dealt, actions, exchanges, showdown,
      pots, net, categories, bluffers, demon, ante };
  }

  function decodeGendeneia(h) {
    const f = LINES[h].split('|');
    const agents = Array.from(f[1], ci);
    const n = agents.length;
    const hands = [];
    for (let s = 0; s < n; s++) hands.push([ci((f[3] || '')[2 * s]), ci((f[3] || '')[2 * s + 1])]);
    const steps = f[4] ? f[4].split(';').map((t) => {
      const colon = t.indexOf(':');
      const head = colon < 0 ? t : t.slice(0, colon);
      const step = { seat: ci(head[0]), kind: head[1], target: -1, card: -1, changes: [] };
      if (step.kind === 'p' && head.length > 2) step.target = ci(head[2]);
      if (step.kind === 'r' && head.length > 2) step.card = ci(head[2]);
      const body = colon < 0 ? '' : t.slice(colon + 1);
      if (body) {
        for (const c of body.split(',')) {
          if (c[0] === 'H') step.changes.push({ type: 'H', seat: ci(c[1]), hand: [ci(c[2]), ci(c[3])] });
          else if (c[0] === '+' || c[0] === '-') {
            step.changes.push({ type: c[0], owner: c[1] === 't' ? 't' : ci(c[1]), lot: Number(c[2]),
              pair: [ci(c[3]), ci(c[4])] });
          }
        }
      }
      return step;
    }) : [];
    return { index: h, id: f[0], agents, n, first: ci(f[2]), hands, steps,
      scores: f[5] ? f[5].split(',').map(Number) : [], winners: Array.from(f[6] || '', ci),
      end: f.slice(7).join('|') };
  }

  // -------------------------------------------------------------------- the replayer

  let current = null; // the decoded hand or game
  let steps = [];
  let stepIndex = 0;

  const seatLabel = (hand, s) => `Seat ${s} (${agentShort(hand.agents[s])})`;
  const seatLabelFull = (hand, s) => `Seat ${s} (${agentName(hand.agents[s])})`;
  const listNames = (ids) => ids.map(cardName).join(', ');

  function view() {
    const v = ui.viewSeat.value;
    return v === 'all' || v === '' ? -1 : Number(v);
  }

  // Lith: the steps of a hand as seen by `v` (-1: every card shown).
  function lithSteps(hand, v) {
    const n = hand.n;
    const st = {
      hands: hand.dealt.map((c) => (c ? c.slice() : null)),
      committed: hand.dealt.map((c) => (c ? hand.ante : 0)),
      folded: new Array(n).fill(false),
      shown: new Array(n).fill(false),
      cats: new Array(n).fill(-1),
      last: new Array(n).fill(''),
      result: null,
    };
    const known = new Set();
    if (v >= 0 && hand.dealt[v]) for (const c of hand.dealt[v]) known.add(c);
    const out = [];
    const sees = (s) => v < 0 || s === v;
    const snap = (entry) => {
      const hands = st.hands.map((cards, s) => (cards ? cards.map((c) => ({
        card: c, up: c >= 0 && (v < 0 || s === v || st.shown[s] || known.has(c)),
      })) : null));
      out.push(Object.assign({
        hands, committed: st.committed.slice(), folded: st.folded.slice(), shown: st.shown.slice(),
        cats: st.cats.slice(), last: st.last.slice(), pot: st.committed.reduce((t, c) => t + c, 0),
        result: st.result, actor: -1, sub: [],
      }, entry));
    };

    let dealText = `Deal: seat ${hand.dealer} deals`;
    if (hand.ante) dealText += `; every seat antes ${num(hand.ante)}`;
    if (v >= 0 && hand.dealt[v]) dealText += `; seat ${v} holds ${listNames(hand.dealt[v])}`;
    const out0 = hand.dealt.map((c, s) => (c ? null : s)).filter((s) => s !== null);
    const sub0 = out0.length ? [`not dealt in: seat ${out0.join(', ')}`] : [];
    snap({ text: dealText, phase: 'deal', sub: sub0 });

    let bet = 0, exch = 0, inExchange = false;
    let discards = new Map();
    const reveal = () => {
      const rec = hand.exchanges[exch];
      const sub = [];
      if (rec) {
        for (const m of rec.moves) {
          const cards = m.to >= 0 && m.to < n ? st.hands[m.to] : null;
          if (cards) {
            const slot = cards.indexOf(-1);
            if (slot >= 0) cards[slot] = m.card; else cards.push(m.card);
          }
          if (m.from >= 0) {
            const name = sees(m.from) || m.to === v ? cardName(m.card) : 'a card';
            sub.push(`Seat ${m.from} passes ${name} to seat ${m.to}`);
          } else {
            sub.push(`Seat ${m.to} draws ${sees(m.to) ? cardName(m.card) : 'a card'} from the deck`);
          }
          if (v >= 0) {
            if (m.to === v || m.from === v) known.add(m.card); else known.delete(m.card);
          }
        }
        for (const c of rec.bottom) {
          let owner = -1;
          for (const [s, d] of discards) if (d === c) owner = s;
          if (owner >= 0) {
            sub.push(`Seat ${owner}'s discard ${sees(owner) ? cardName(c) : '(a card)'} goes to the bottom of the deck`);
          } else {
            sub.push(`${v < 0 ? cardName(c) : 'A card'} goes to the bottom of the deck`);
          }
          known.delete(c);
        }
      }
      for (const cards of st.hands) {
        if (!cards) continue;
        for (let k = cards.length - 1; k >= 0; k--) if (cards[k] === -1) cards.splice(k, 1);
      }
      if (sub.length) {
        snap({ text: `Exchange ${exch + 1}: the discards change hands`, phase: `exchange ${exch + 1}`, sub });
      }
      exch++;
      bet++;
      inExchange = false;
      discards = new Map();
    };

    for (const a of hand.actions) {
      const s = a.seat;
      if (s < 0 || s >= n) continue;
      const isExchange = a.kind === 'x' || a.kind === 'd';
      if (isExchange && !inExchange) inExchange = true;
      if (!isExchange && inExchange) reveal();
      let what;
      switch (a.kind) {
        case 'f': what = 'folds'; st.folded[s] = true; break;
        case 'k': what = 'checks'; break;
        case 'c': what = a.chips ? `calls ${num(a.chips)}` : 'calls'; break;
        case 'b':
          what = `bets ${num(a.amount)}` + (a.amount !== a.chips ? ` (puts in ${num(a.chips)})` : '');
          break;
        case 'r':
          what = `raises to ${num(a.amount)}` + (a.amount !== a.chips ? ` (puts in ${num(a.chips)})` : '');
          break;
        case 'x': what = 'keeps all three cards'; break;
        case 'd': {
          const cards = st.hands[s];
          if (cards) {
            const k = cards.indexOf(a.card);
            if (k >= 0) cards[k] = -1;
            if (v >= 0 && s !== v) for (const c of cards) known.delete(c);
          }
          discards.set(s, a.card);
          what = `discards ${sees(s) ? cardName(a.card) : 'a card'}`;
          break;
        }
        default: what = `acts (${a.kind})`;
      }
      if (!isExchange) st.committed[s] += a.chips;
      st.last[s] = what;
      snap({
        text: `${seatLabel(hand, s)} ${what}`,
        phase: isExchange ? `exchange ${exch + 1}` : `betting round ${bet + 1}`,
        actor: s,
      });
    }
    if (inExchange) reveal();

    if (hand.showdown.length) {
      const sub = [];
      for (const t of hand.showdown) {
        if (t.seat < 0 || t.seat >= n) continue;
        st.hands[t.seat] = t.cards.slice();
        st.shown[t.seat] = true;
        st.cats[t.seat] = t.cat;
        for (const c of t.cards) known.add(c);
        const category = t.cat >= 0 && t.cat < CATEGORIES.length ? CATEGORIES[t.cat] : '';
        sub.push(`${seatLabel(hand, t.seat)} shows ${listNames(t.cards)}${category ? ': ' + category : ''}`);
      }
      if (hand.demon) {
        const role = hand.demon === 'heads' ? 'imposter' : 'beggar';
        sub.push(`The Excuse plays as the ${role}: the demon's coin came up ${hand.demon}`);
      }
      for (let s = 0; s < n; s++) st.last[s] = '';
      snap({ text: 'Showdown', phase: 'showdown', sub });
    }

    // The result: the pots' winners and every seat's net.
    const won = new Array(n).fill(0);
    const sub = [];
    hand.pots.forEach((p, i) => {
      const ws = p.winners.filter((w) => w >= 0 && w < n);
      for (const w of ws) won[w] += p.amount / (ws.length || 1);
      const potName = hand.pots.length > 1 ? (i === 0 ? 'the main pot' : `side pot ${i}`) : 'the pot';
      const who = ws.length === 1 ? `Seat ${ws[0]}` : `Seats ${ws.join(' and ')}`;
      sub.push(`${who} ${ws.length === 1 ? 'takes' : 'split'} ${potName} of ${num(p.amount)}`);
    });
    const lines = [];
    for (let s = 0; s < n; s++) {
      const net = hand.net[s] || 0;
      let text;
      if (won[s] > 0) text = `${seatLabelFull(hand, s)} wins ${num(won[s])} (${signed(net)})`;
      else if (!hand.dealt[s]) text = `${seatLabelFull(hand, s)} was not dealt in (${signed(net)})`;
      else text = `${seatLabelFull(hand, s)} loses ${num(-net)} (${signed(net)})`;
      lines.push({ seat: s, text, net, winner: won[s] > 0 });
    }
    st.result = lines;
    for (let s = 0; s < n; s++) st.last[s] = '';
    const winnersText = lines.filter((l) => l.winner).map((l) => l.text.replace(seatLabelFull(hand, l.seat), seatLabel(hand, l.seat)));
    snap({ text: 'Result: ' + (winnersText.join('; ') || 'no winner'), phase: 'result', sub, final: true });
    return out;
  }

  // Gendeneía: the steps of a game as seen by `v` (-1: every hand shown).
  function genSteps(game, v) {
    const n = game.n;
    const hands = game.hands.map((p) => p.slice());
    const lots = new Map(); // key "owner:lot" -> [{pair, cls}]
    const key = (owner, lot) => `${owner}:${lot}`;
    const lotOf = (owner, lot) => {
      const k = key(owner, lot);
      if (!lots.has(k)) lots.set(k, []);
      return lots.get(k);
    };
    for (let s = 0; s < n; s++) for (let l = 0; l < 3; l++) lotOf(s, l);
    const pairName = (p) => `${cardName(p[0])}/${cardName(p[1])}`;
    const lotName = (owner, lot) => (owner === 't' ? `the round's ${LOTS[lot] || 'lot ' + lot}` :
      `seat ${owner}'s ${LOTS[lot] || 'lot ' + lot}`);
    const sees = (s) => v < 0 || s === v;
    const out = [];
    const snap = (entry) => {
      const copy = new Map();
      for (const [k, list] of lots) copy.set(k, list.map((x) => ({ pair: x.pair.slice(), cls: x.cls })));
      out.push(Object.assign({ hands: hands.map((p) => p.slice()), lots: copy, actor: -1, sub: [], result: null }, entry));
    };
    const same = (a, b) => a[0] === b[0] && a[1] === b[1];

    let dealText = `Opening hands dealt; seat ${game.first} (${agentShort(game.agents[game.first])}) plays first`;
    if (v >= 0 && hands[v]) dealText += `; seat ${v} holds ${pairName(hands[v])}`;
    snap({ text: dealText, phase: 'deal' });

    for (const step of game.steps) {
      // Marks from the previous step go: knocked-off pairs leave, new pairs settle.
      for (const list of lots.values()) {
        for (let k = list.length - 1; k >= 0; k--) {
          if (list[k].cls === 'trumped' || list[k].cls === 'removed') list.splice(k, 1);
          else list[k].cls = '';
        }
      }
      const s = step.seat;
      const before = s >= 0 && s < n ? hands[s].slice() : [-1, -1];
      const adds = step.changes.filter((c) => c.type === '+');
      const takes = step.changes.filter((c) => c.type === '-');
      const isMove = (c) => adds.some((a) => same(a.pair, c.pair)) && takes.some((t) => same(t.pair, c.pair));
      const sub = [];
      let what = '';
      // Pairs taken off: trumped (a play), removed (a Twist), or moved (the round's lots going home).
      const knocked = [];
      for (const c of takes) {
        const list = lotOf(c.owner, c.lot);
        const k = list.findIndex((x) => same(x.pair, c.pair) && x.cls !== 'trumped' && x.cls !== 'removed');
        if (isMove(c)) {
          if (k >= 0) list.splice(k, 1);
          continue;
        }
        const cls = step.kind === 'p' ? 'trumped' : 'removed';
        if (k >= 0) list[k].cls = cls; else list.push({ pair: c.pair.slice(), cls });
        knocked.push(c);
      }
      // Pairs put down: the played one, and any other (moved) pair.
      let playedTo = null;
      if (step.kind === 'p') {
        playedTo = adds.find((c) => same(c.pair, before) && !isMove(c)) ||
          adds.find((c) => (c.owner === step.target || c.owner === 't') && !isMove(c)) || null;
      }
      for (const c of adds) {
        lotOf(c.owner, c.lot).push({ pair: c.pair.slice(), cls: 'new' });
        if (c === playedTo) continue;
        const from = takes.find((t) => same(t.pair, c.pair));
        sub.push(from ? `${pairName(c.pair)} moves from ${lotName(from.owner, from.lot)} to ${lotName(c.owner, c.lot)}`
          : `${pairName(c.pair)} goes onto ${lotName(c.owner, c.lot)}`);
      }
      // Hands.
      let newHand = null;
      for (const c of step.changes) {
        if (c.type === 'H' && c.seat >= 0 && c.seat < n) {
          hands[c.seat] = c.hand.slice();
          if (c.seat === s) newHand = c.hand;
        }
      }
      const drawText = (hand) => (hand[0] < 0 && hand[1] < 0 ? 'has no cards left to draw' :
        `draws ${sees(s) ? pairName(hand) : 'a new hand'}`);
      switch (step.kind) {
        case 'k': what = sees(s) && before[0] >= 0 ? `keeps ${pairName(before)}` : 'keeps the hand'; break;
        case 'd':
          what = `discards ${pairName(before)}` + (newHand ? ` and ${drawText(newHand)}` : '');
          break;
        case 'p': {
          const played = playedTo ? playedTo.pair : before;
          what = `plays ${pairName(played)} onto ` +
            (playedTo ? lotName(playedTo.owner, playedTo.lot) : `seat ${step.target}'s lots`);
          const tr = knocked;
          if (tr.length) {
            const byLot = new Map();
            for (const c of tr) {
              const k = key(c.owner, c.lot);
              if (!byLot.has(k)) byLot.set(k, { owner: c.owner, lot: c.lot, pairs: [] });
              byLot.get(k).pairs.push(pairName(c.pair));
            }
            what += ', trumps ' + Array.from(byLot.values()).map((g) =>
              `${g.pairs.join(', ')} off ${lotName(g.owner, g.lot)}`).join('; ');
          }
          if (newHand) what += ` and ${drawText(newHand)}`;
          break;
        }
        case 'r': {
          what = knocked.length
            ? 'removes ' + knocked.map((c) => `${pairName(c.pair)} from ${lotName(c.owner, c.lot)}`).join(', ')
            : `removes the pair of ${cardName(step.card)}`;
          if (newHand) what += ` and ${drawText(newHand)}`;
          break;
        }
        case 's': what = 'passes (removes nothing)' + (newHand ? ` and ${drawText(newHand)}` : ''); break;
        default: what = `acts (${step.kind})`;
      }
      if (step.kind !== 'p' && step.kind !== 'r' && knocked.length) {
        sub.push(...knocked.map((c) => `${pairName(c.pair)} leaves ${lotName(c.owner, c.lot)}`));
      }
      for (const c of step.changes) {
        if (c.type === 'H' && c.seat !== s && c.seat >= 0 && c.seat < n) {
          sub.push(`Seat ${c.seat} ${c.hand[0] < 0 ? 'has no hand' : 'draws ' + (sees(c.seat) ? pairName(c.hand) : 'a new hand')}`);
        }
      }
      snap({ text: `${seatLabel(game, s)} ${what}`, phase: `seat ${s}'s turn`, actor: s, sub,
        trump: step.kind === 'p' && knocked.length > 0 });
    }
    // Final: scores and winners.
    for (const list of lots.values()) {
      for (let k = list.length - 1; k >= 0; k--) {
        if (list[k].cls === 'trumped' || list[k].cls === 'removed') list.splice(k, 1);
        else list[k].cls = '';
      }
    }
    const winners = new Set(game.winners);
    const lines = [];
    for (let s = 0; s < n; s++) {
      const score = game.scores[s];
      lines.push({
        seat: s, winner: winners.has(s), net: score,
        text: `${seatLabelFull(game, s)} scores ${Number.isFinite(score) ? num(score) : '?'}` +
          (winners.has(s) ? ' \u2014 wins' : ''),
      });
    }
    const names = game.winners.map((s) => seatLabel(game, s));
    snap({
      text: `Game over${game.end ? ' (' + game.end + ')' : ''}: ` +
        (names.length ? `${names.join(' and ')} ${names.length > 1 ? 'win' : 'wins'} (lowest score)` : 'no winner'),
      phase: 'result', result: lines, final: true, end: game.end,
    });
    return out;
  }

  function buildSteps() {
    const v = view();
    steps = LITH ? lithSteps(current, v) : genSteps(current, v);
    if (stepIndex >= steps.length) stepIndex = steps.length - 1;
    if (stepIndex < 0) stepIndex = 0;
  }

  function openHand(h) {
    if (!(h >= 0 && h < N)) return;
    let hand;
    try {
      hand = LITH ? decodeLith(h) : decodeGendeneia(h);
    } catch (error) {
      showError(`${LITH ? 'Hand' : 'Game'} on line ${h + 1} could not be read: ${error.message}`);
      return;
    }
    current = hand;
    const previous = ui.viewSeat.value;
    ui.viewSeat.replaceChildren(el('option', { value: 'all', text: 'all cards shown' }),
      ...hand.agents.map((a, s) => el('option', { value: String(s), text: `seat ${s} (${agentShort(a)})` })));
    ui.viewSeat.value = previous && previous !== 'all' && Number(previous) < hand.n ? previous : 'all';
    ui.title.textContent = `${LITH ? 'Hand' : 'Game'} ${hand.id}`;
    ui.title.title = `line ${h + 1} of the recorded ${GAME_UNIT}`;
    ui.replayer.dataset.index = String(h);
    ui.replayer.dataset.id = hand.id;
    stepIndex = 0;
    buildSteps();
    ui.replayer.hidden = false;
    ui.placeholder.hidden = true;
    for (const row of ui.tbody.querySelectorAll('tr.hand-row')) {
      row.classList.toggle('selected', Number(row.dataset.index) === h);
    }
    renderStep();
  }

  function go(i) {
    if (!current) return;
    const j = Math.max(0, Math.min(steps.length - 1, i === Infinity ? steps.length - 1 : i));
    if (j === stepIndex) return;
    stepIndex = j;
    renderStep();
  }

  // ------------------------------------------------------------------- card drawing

  const hiddenCard = (mini) => DecktetCards.hiddenCard(mini);
  const lithCard = (id) => DecktetCards.lithCard(CARDS[id]);
  const genCard = (id, mini) => DecktetCards.genCard(CARDS[id], mini);

  // ------------------------------------------------------------------------ rendering

  function renderStep() {
    const hand = current;
    const snap = steps[stepIndex];
    const v = view();
    ui.replayer.dataset.step = String(stepIndex);
    ui.stepInfo.textContent = `step ${stepIndex + 1} of ${steps.length}`;
    ui.stepPhase.textContent = snap.phase || '';
    ui.stepStart.disabled = ui.stepPrev.disabled = stepIndex <= 0;
    ui.stepNext.disabled = ui.stepEnd.disabled = stepIndex >= steps.length - 1;

    if (LITH) renderLithTable(hand, snap, v); else renderGenTable(hand, snap, v);

    // Result.
    if (snap.final && snap.result) {
      ui.result.replaceChildren(
        el('div', { class: 'result-title', text: LITH ? 'Result' : `Final scores${snap.end ? ' \u2014 ' + snap.end : ''}` }),
        el('ul', null, snap.result.map((r) => el('li', {
          class: (r.winner ? 'winner' : '') + (LITH ? (r.net > 0 ? ' pos' : r.net < 0 ? ' neg' : '') : ''),
          'data-seat': String(r.seat),
        }, r.text))));
      ui.result.hidden = false;
    } else {
      ui.result.replaceChildren();
      ui.result.hidden = true;
    }

    // Log: what happened so far, the current step highlighted.
    const items = [];
    for (let i = 0; i <= stepIndex; i++) {
      const s = steps[i];
      const li = el('li', { class: (i === stepIndex ? 'current' : '') + (s.trump ? ' trump' : ''), 'data-step': String(i) },
        el('span', { class: 'what' }, s.text));
      if (s.sub && s.sub.length) li.appendChild(el('div', { class: 'sub' }, s.sub.map((t) => el('div', null, t))));
      li.addEventListener('click', () => go(i));
      items.push(li);
    }
    ui.log.replaceChildren(...items);
    const wrap = ui.log.parentElement;
    if (wrap) wrap.scrollTop = wrap.scrollHeight; // the current step is the last one listed
  }

  function seatHead(hand, s, v, extra) {
    const a = hand.agents[s];
    return el('div', { class: 'seat-head' },
      el('span', { class: 'seat-no', text: `Seat ${s}` }),
      extra,
      v === s ? el('span', { class: 'you', text: 'view', title: 'the replay is seen from this seat' }) : null,
      el('span', { class: 'agent', title: agentName(a) },
        el('span', { class: 'dot', style: { background: agentColour(a) } }), agentName(a)));
  }

  function renderLithTable(hand, snap, v) {
    ui.pot.replaceChildren(el('span', { class: 'label', text: 'Pot ' }), el('strong', { text: num(snap.pot) }));
    const seats = [];
    for (let s = 0; s < hand.n; s++) {
      const dealt = !!hand.dealt[s];
      const winner = snap.final && snap.result && snap.result[s] && snap.result[s].winner;
      const cls = 'seat' + (snap.folded[s] ? ' folded' : '') + (snap.shown[s] ? ' shown' : '') +
        (snap.actor === s ? ' acting' : '') + (dealt ? '' : ' out') + (winner ? ' winner' : '') +
        (v === s ? ' viewer' : '');
      const dealer = s === hand.dealer ? el('span', { class: 'dealer', title: 'dealer', text: 'D' }) : null;
      const info = el('div', { class: 'seat-info' },
        el('span', { class: 'committed', title: 'chips put in this hand' }, 'in ', el('strong', { text: num(snap.committed[s]) })),
        snap.folded[s] ? el('span', { class: 'tag fold', text: 'folded' }) : null,
        snap.last[s] ? el('span', { class: 'last', text: snap.last[s] }) : null,
        snap.final ? el('span', { class: 'net ' + (hand.net[s] > 0 ? 'pos' : hand.net[s] < 0 ? 'neg' : ''), text: signed(hand.net[s] || 0) }) : null);
      const cards = el('div', { class: 'cards' });
      const held = snap.hands[s];
      if (held) {
        for (const c of held) {
          if (c.card < 0) cards.appendChild(el('div', { class: 'card-slot', title: 'discarded, waiting for the exchange' }));
          else cards.appendChild(c.up ? lithCard(c.card) : hiddenCard(false));
        }
      } else {
        cards.appendChild(el('span', { class: 'muted', text: 'not dealt in' }));
      }
      const cat = snap.shown[s] && snap.cats[s] >= 0
        ? el('div', { class: 'category', text: CATEGORIES[snap.cats[s]] || '' }) : null;
      seats.push(el('div', { class: cls, 'data-seat': String(s) }, seatHead(hand, s, v, dealer), info, cards, cat));
    }
    ui.seats.className = 'seats n' + hand.n;
    ui.seats.replaceChildren(...seats);
    ui.temp.replaceChildren();
  }

  function lotElement(owner, lot, list) {
    const info = suitInfo(LOTS[lot] || '');
    let sum = 0;
    for (const x of list) if (x.cls !== 'trumped' && x.cls !== 'removed' && CARDS[x.pair[0]]) sum += CARDS[x.pair[0]].value;
    return el('div', { class: 'lot', 'data-seat': String(owner), 'data-lot': String(lot) },
      el('div', { class: 'lot-name', style: { color: info.colour } },
        el('span', { class: 'glyph', text: info.glyph }), ' ', LOTS[lot] || `lot ${lot}`,
        el('span', { class: 'lot-sum', title: 'sum of the Choice values on this lot', text: list.length ? ` \u03A3${sum}` : '' })),
      el('div', { class: 'pairs' }, list.length ? list.map((x) => el('div', {
        class: 'pair' + (x.cls ? ' ' + x.cls : ''),
        'data-pair': `${cardName(x.pair[0])}/${cardName(x.pair[1])}`,
        title: `${cardName(x.pair[0])}/${cardName(x.pair[1])}` +
          (x.cls === 'trumped' ? ' (trumped off)' : x.cls === 'removed' ? ' (removed)' : x.cls === 'new' ? ' (just played)' : ''),
      }, genCard(x.pair[0], true), genCard(x.pair[1], true))) : el('span', { class: 'muted', text: 'empty' })));
  }

  function renderGenTable(game, snap, v) {
    ui.pot.replaceChildren();
    ui.pot.hidden = true;
    const seats = [];
    for (let s = 0; s < game.n; s++) {
      const winner = snap.final && snap.result && snap.result[s] && snap.result[s].winner;
      const cls = 'seat' + (snap.actor === s ? ' acting' : '') + (winner ? ' winner' : '') + (v === s ? ' viewer' : '');
      const first = s === game.first ? el('span', { class: 'dealer', title: 'first player', text: '1st' }) : null;
      const handCards = el('div', { class: 'cards hand' });
      const held = snap.hands[s];
      const up = v < 0 || v === s;
      if (held[0] < 0 && held[1] < 0) handCards.appendChild(el('span', { class: 'muted', text: 'no hand' }));
      else for (const c of held) handCards.appendChild(up ? genCard(c, false) : hiddenCard(false));
      const lots = el('div', { class: 'lots' });
      for (let l = 0; l < 3; l++) lots.appendChild(lotElement(s, l, snap.lots.get(`${s}:${l}`) || []));
      const score = snap.final && snap.result && snap.result[s]
        ? el('div', { class: 'score', text: `score ${num(snap.result[s].net)}${winner ? ' \u2014 wins' : ''}` }) : null;
      seats.push(el('div', { class: cls, 'data-seat': String(s) },
        el('div', { class: 'seat-side' }, seatHead(game, s, v, first),
          el('div', { class: 'hand-label', text: 'hand' }), handCards, score),
        lots));
    }
    ui.seats.className = 'seats gen n' + game.n;
    ui.seats.replaceChildren(...seats);
    const temp = [];
    for (let l = 0; l < 3; l++) {
      const list = snap.lots.get(`t:${l}`);
      if (list && list.length) temp.push(lotElement('t', l, list));
    }
    if (temp.length) {
      ui.temp.replaceChildren(el('div', { class: 'temp-title', text: "The round's lots" }), el('div', { class: 'lots' }, temp));
    } else {
      ui.temp.replaceChildren();
    }
  }

  // ------------------------------------------------------------------------ keyboard

  document.addEventListener('keydown', (e) => {
    if (!current || ui.replayer.hidden || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
    if (e.key === 'ArrowRight') { go(stepIndex + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') { go(stepIndex - 1); e.preventDefault(); }
    else if (e.key === 'Home') { go(0); e.preventDefault(); }
    else if (e.key === 'End') { go(Infinity); e.preventDefault(); }
    else if (e.key === 'Enter' && t && t.classList && t.classList.contains('hand-row')) {
      openHand(Number(t.dataset.index));
    }
  });

  // ---------------------------------------------------------------------------- start

  buildUI();
  applyFilter();
  lastSignature = filterSignature();
  renderList();
  const renderMs = performance.now() - tRender0;
  window.reportFilter = function () {
    const m = applyFilter();
    lastSignature = filterSignature();
    page = 0;
    renderList();
    return m;
  };
  window.reportOpen = function (index) { openHand(Number(index)); return !!current; };
  window.reportTiming = {
    parse_ms: Math.round(parseMs * 10) / 10,
    render_ms: Math.round(renderMs * 10) / 10,
    ready_ms: Math.round(performance.now() * 10) / 10,
    hands: N,
  };
  window.reportReady = true;
})();
