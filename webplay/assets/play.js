/* play.js: the browser game. Plain ES2020, no libraries; the cards are drawn by cards.js (the
   report's drawing). It asks the server (webplay.app) for the table as the person's seat sees
   it and sends the person's choice by its index with the table's version; every text goes in
   through textContent (cards.js's el), never as HTML. */
(function () {
  'use strict';

  const { el } = DecktetCards;
  const $ = (id) => document.getElementById(id);
  let OPTIONS = null;
  let CARDS = { lith: [], gendeneia: [] };
  let table = null; // the last state the server sent

  async function call(method, url, body) {
    const response = await fetch(url, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    return data;
  }

  function showError(error) {
    $('error').textContent = error ? String(error.message || error) : '';
  }

  // ------------------------------------------------------------------------ the cards

  function cardObjects(options) {
    CARDS.lith = options.cards.lith.map((c) => ({ name: String(c[0]), rank: String(c[1]), suits: c[2] || [] }));
    CARDS.gendeneia = options.cards.gendeneia.map((c) => {
      const name = String(c[0]);
      return { name, number: name.slice(0, -1), value: Number(c[1]), suits: [String(c[2])] };
    });
  }
  const lithCard = (id) => DecktetCards.lithCard(CARDS.lith[id]);
  const hidden = () => DecktetCards.hiddenCard(false);
  const genCard = (id, mini) => DecktetCards.genCard(id === null || id === undefined ? undefined : CARDS.gendeneia[id], mini);

  // ------------------------------------------------------------------------ the set-up

  function fillSetup() {
    const game = $('game');
    for (const name of Object.keys(OPTIONS.games)) game.appendChild(el('option', { value: name, text: name }));
    game.addEventListener('change', onGame);
    $('players').addEventListener('change', onPlayers);
    onGame();
    $('setup').addEventListener('submit', (event) => { event.preventDefault(); start(); });
    $('leave').addEventListener('click', leave);
  }

  function onGame() {
    const name = $('game').value;
    const game = OPTIONS.games[name];
    $('players').max = game.players[1];
    $('players').value = name === 'lith' ? 2 : 3;
    onPlayers();
    for (const node of document.querySelectorAll('.lith-only')) node.hidden = name !== 'lith';
  }

  function onPlayers() {  // the zoo's bot for this seat count, if it has one
    const bots = OPTIONS.games[$('game').value].bots[$('players').value];
    if (bots) $('bots').value = bots;
  }

  async function start() {
    showError(null);
    const game = $('game').value;
    const body = {
      game,
      players: Number($('players').value),
      seat: Number($('seat').value),
      bots: $('bots').value,
      rules: {},
    };
    if ($('seed').value !== '') body.seed = Number($('seed').value);
    if (game === 'lith') {
      body.rules.betting = $('betting').value;
      if ($('excuse').value) body.rules.excuse = $('excuse').value;
    }
    $('start').disabled = true;
    try {
      render(await call('POST', '/api/tables', body));
    } catch (error) {
      showError(error);
    } finally {
      $('start').disabled = false;
    }
  }

  async function choose(index, amount) {
    showError(null);
    for (const b of $('choices').querySelectorAll('button')) b.disabled = true;
    const body = { choice: index, version: table.version };
    if (amount !== undefined) body.amount = amount;
    try {
      render(await call('POST', `/api/tables/${table.id}/act`, body));
    } catch (error) {
      showError(error);
      render(await call('GET', `/api/tables/${table.id}`));
    }
  }

  async function leave() {
    if (!table) return;
    try {
      const left = await call('DELETE', `/api/tables/${table.id}`);
      $('history').textContent = `Left the table. Its hands are ${savedIn(left.history)}`;
    } catch (error) {
      showError(error);
    }
    $('choices').replaceChildren();
    table = null;
  }

  // ------------------------------------------------------------------------ the table

  function render(state) {
    table = state;
    $('table').hidden = false;
    if (state.game === 'lith') renderLith(state); else renderGendeneia(state);
    renderChoices(state);
    renderFinished(state);
    $('log').replaceChildren(...state.log.map((line) => el('li', { text: line })));
    $('log').scrollTop = $('log').scrollHeight;
    $('history').textContent = `Every finished ${state.game === 'lith' ? 'hand' : 'game'} is ${savedIn(state.history)}`;
  }

  // The server sends only the name of the session's folder, never its path on the server.
  function savedIn(folder) {
    return `saved in the folder ${folder} of the server's --history-dir (runs/web unless it was given); ` +
      `open it in the report's replayer with: decktet report runs/web/${folder} --html`;
  }

  function who(state, seat) {
    return seat === state.seat ? 'you' : `seat ${seat} (${state.players[seat]})`;
  }

  function renderLith(state) {
    const v = state.view;
    const phase = v.phase === 'bet' ? `betting round ${v.round + 1} of ${v.rounds}` :
      v.phase === 'exchange' ? `exchange ${v.round + 1} of ${v.rounds - 1}` : v.phase;
    $('status').textContent = state.over ? 'The match is over' :
      `Lith, ${v.structure} — ${phase} — pot ${v.pot}` + (state.to_act === state.seat ? ' — your turn' : '');
    const seats = [];
    for (let s = 0; s < v.num_players; s++) {
      const status = !v.dealt_in[s] ? 'out' : v.folded[s] ? 'folded' : s === v.current_player ? 'to act' : 'in';
      const cards = s === state.seat ? v.cards.map(lithCard) : v.dealt_in[s] ? [hidden(), hidden(), hidden()] : [];
      seats.push(el('div', {
        class: 'seat' + (s === state.seat ? ' me' : '') + (status === 'to act' ? ' to-act' : '') + (status === 'folded' ? ' folded' : ''),
        'data-seat': s,
      },
      el('div', { class: 'who', text: who(state, s) + (s === v.dealer ? ' — dealer' : '') }),
      el('div', { class: 'figures', text: `stack ${v.stacks[s]} · bet ${v.bets[s]} · in pot ${v.committed[s]} · ${status}` }),
      el('div', { class: 'cards' }, cards)));
    }
    $('seats').replaceChildren(...seats);
    const mine = [];
    if (v.hand) {
      mine.push(el('p', { text: `Your hand: ${v.hand.category} (qualifier: ${v.hand.qualifier}), better than ${Math.round(100 * v.hand.percentile)}% of hands.` }));
    }
    if (v.phase === 'bet' && state.to_act === state.seat) mine.push(el('p', { text: `To call: ${Math.min(v.highest - v.bets[v.seat], v.stacks[v.seat])}` }));
    $('mine').replaceChildren(...mine);
  }

  const LOTS = ['Collars', 'Hope', 'Blood'];

  function pairs(list) {
    return list.map((p) => el('div', { class: 'pair' }, genCard(p[0], true), genCard(p[1], true)));
  }

  function renderGendeneia(state) {
    const v = state.view;
    $('status').textContent = state.over ? `The game is over (${v.end_reason}); lowest score: ${v.winners.map((s) => who(state, s)).join(', ')}` :
      `Gendeneía — round ${v.round + 1} — draw piles ${v.draw_sizes[0]} Choices, ${v.draw_sizes[1]} Forces` +
      (state.to_act === state.seat ? ' — your turn' : '');
    const seats = [];
    for (let s = 0; s < v.num_players; s++) {
      seats.push(el('div', {
        class: 'seat gen' + (s === state.seat ? ' me' : '') + (s === v.current_player ? ' to-act' : ''),
        'data-seat': s,
      },
      el('div', { class: 'who', text: who(state, s) + (s === v.leader ? ' — leads the round' : '') }),
      el('div', { class: 'figures', text: `score ${v.scores[s]}` }),
      el('div', { class: 'lots' }, v.lots[s].map((lot, i) => el('div', { class: 'lot' }, el('h4', { text: LOTS[i] }), pairs(lot))))));
    }
    if (v.round_lots) {
      seats.push(el('div', { class: 'seat gen' }, el('div', { class: 'who', text: 'round lots' }),
        el('div', { class: 'lots' }, v.round_lots.map((lot, i) => el('div', { class: 'lot' }, el('h4', { text: LOTS[i] }), pairs(lot))))));
    }
    $('seats').replaceChildren(...seats);
    const mine = [];
    if (v.hand[0] !== null && !state.over) {
      mine.push(el('h3', { text: 'Your pair' }), el('div', { class: 'cards', id: 'my-pair' }, genCard(v.hand[0]), genCard(v.hand[1])));
    }
    if (v.pending) mine.push(el('p', { text: `A removal is owed (${v.pending[2]}).` }));
    const tops = v.discards.map((pile) => pile.slice(-6));
    mine.push(el('p', { class: 'hint', text: 'Face-up discards (last 6):' }),
      el('div', { class: 'cards' }, tops[0].map((c) => genCard(c, true)), tops[1].map((c) => genCard(c, true))));
    $('mine').replaceChildren(...mine);
  }

  function renderChoices(state) {
    const buttons = state.choices.map((choice, i) => {
      if (!choice.amount) {
        return el('button', { type: 'button', 'data-choice': i, text: choice.label, onclick: () => choose(i) });
      }
      const input = el('input', { type: 'number', min: choice.amount[0], max: choice.amount[1], value: choice.amount[0], 'data-amount': i });
      return el('span', { class: 'amount' }, input,
        el('button', { type: 'button', 'data-choice': i, text: choice.label, onclick: () => choose(i, Number(input.value)) }));
    });
    $('choices').replaceChildren(...buttons);
  }

  function renderFinished(state) {
    const done = state.finished.length ? state.finished[state.finished.length - 1] : null;
    if (!done) { $('finished').replaceChildren(); return; }
    const parts = [el('h3', { text: state.game === 'lith' ? `Hand ${done.hand}` : 'The game' })];
    if (state.game === 'lith') {
      for (const [seat, cards] of Object.entries(done.showdown)) {
        const ids = cards.map((name) => CARDS.lith.findIndex((c) => c.name === name));
        parts.push(el('div', { class: 'shown', 'data-seat': seat }, el('span', { text: `${who(state, Number(seat))} shows ` }),
          el('span', { class: 'cards' }, ids.map(lithCard))));
      }
      for (const pot of done.pots) parts.push(el('p', { text: `pot of ${pot.amount} to ${pot.winners.map((s) => who(state, s)).join(', ')}` }));
      parts.push(el('p', { text: 'net: ' + done.net.map((n, s) => `${who(state, s)} ${n >= 0 ? '+' : ''}${n}`).join(', ') }));
    } else {
      parts.push(el('p', { text: `scores: ${done.scores.join(', ')}; lowest: ${done.winners.map((s) => who(state, s)).join(', ')}` }));
    }
    parts.push(el('h3', { text: 'The bots’ decisions, with their probabilities' }));
    const rows = done.decisions.map((d) => el('tr', {},
      el('td', { text: who(state, d.seat) }),
      el('td', { text: String(d.played) }),
      el('td', {}, d.probabilities.length ? d.probabilities.map((p) => el('div', {},
        el('span', { class: 'bar', style: { width: `${Math.round(60 * p.p)}px` } }),
        `${p.action} ${(100 * p.p).toFixed(1)}%`)) : el('span', { class: 'hint', text: 'this bot gives no probabilities' }))));
    parts.push(el('table', { class: 'decisions' },
      el('thead', {}, el('tr', {}, el('th', { text: 'seat' }), el('th', { text: 'played' }), el('th', { text: 'its probabilities' }))),
      el('tbody', {}, rows)));
    $('finished').replaceChildren(el('div', { class: 'finished' }, parts));
  }

  // ------------------------------------------------------------------------ start

  call('GET', '/api/options').then((options) => {
    OPTIONS = options;
    cardObjects(options);
    fillSetup();
  }).catch(showError);
})();
