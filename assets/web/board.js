// The web board: draws the game the server describes, lets the player to move tap a piece and
// a target (or type a move in any notation), and follows the game live. The server decides
// every move; this page only asks.
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var parts = location.pathname.split('/');
  var token = parts[parts.length - 1];
  var mode = parts[parts.length - 2]; // 'p' (play), 'w' (watch) or 'tg' (a Telegram Mini App)
  var api = '../api/' + encodeURIComponent(token) + '/';
  var GLYPH = {
    K: '帥', A: '仕', B: '相', E: '相', N: '傌', H: '傌', R: '俥', C: '炮', P: '兵',
    k: '將', a: '士', b: '象', e: '象', n: '馬', h: '馬', r: '車', c: '砲', p: '卒'
  };
  var NAME = { K: 'K', A: 'A', B: 'B', E: 'B', N: 'N', H: 'N', R: 'R', C: 'C', P: 'P' };
  var FILES = 'abcdefghi';
  var view = null;
  var words = {};
  var flipped = null;
  var selected = null;
  var viewAt = 0;
  var stream = null;
  var sending = false;
  var ply = null; // the position shown when stepping through a finished game

  function replaying() { return !!(view && view.replay); }
  function shownFen() { return replaying() ? view.replay.fens[ply] : view.fen; }

  function $(id) { return document.getElementById(id); }
  function word(k) { return words[k] || k; }
  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(e); }
    return e;
  }

  // The pieces of a FEN by ICCS square (`e0`: Red's general at the start).
  function pieces(fen) {
    var rows = fen.split(' ')[0].split('/');
    var out = {};
    for (var i = 0; i < rows.length && i < 10; i++) {
      var file = 0;
      for (var j = 0; j < rows[i].length; j++) {
        var ch = rows[i][j];
        if (ch >= '1' && ch <= '9') { file += ch.charCodeAt(0) - 48; continue; }
        out[FILES[file] + String(9 - i)] = ch;
        file++;
      }
    }
    return out;
  }

  function isRed(ch) { return ch === ch.toUpperCase(); }
  function xy(sq) {
    var f = FILES.indexOf(sq[0]);
    var r = Number(sq.slice(1));
    var col = flipped ? 8 - f : f;
    var row = flipped ? r : 9 - r;
    return [6 + col * 11, 6 + row * 11];
  }

  function grid(svg) {
    var g = el('g', { 'class': 'grid' }, svg);
    el('rect', { x: 6, y: 6, width: 88, height: 99 }, g);
    for (var r = 1; r < 9; r++) {
      el('line', { x1: 6, y1: 6 + r * 11, x2: 94, y2: 6 + r * 11 }, g);
    }
    for (var f = 1; f < 8; f++) {
      el('line', { x1: 6 + f * 11, y1: 6, x2: 6 + f * 11, y2: 50 }, g);
      el('line', { x1: 6 + f * 11, y1: 61, x2: 6 + f * 11, y2: 105 }, g);
    }
    [[39, 6, 61, 28], [61, 6, 39, 28], [39, 83, 61, 105], [61, 83, 39, 105]].forEach(function (l) {
      el('line', { x1: l[0], y1: l[1], x2: l[2], y2: l[3] }, g);
    });
    var t1 = el('text', { x: 28, y: 55.5, 'class': 'river' }, svg);
    t1.textContent = '楚 河';
    var t2 = el('text', { x: 72, y: 55.5, 'class': 'river' }, svg);
    t2.textContent = '漢 界';
  }

  function lastMove() {
    var n = replaying() ? ply : view.moves.length;
    var m = n > 0 ? view.moves[n - 1] : null;
    return m ? [m.slice(0, 2), m.slice(2, 4)] : [];
  }

  function targetsOf(sq) {
    return view.legal.filter(function (m) { return m.slice(0, 2) === sq; })
      .map(function (m) { return m.slice(2, 4); });
  }

  function draw() {
    var board = $('board');
    board.textContent = '';
    var svg = el('svg', { viewBox: '0 0 100 111', role: 'group', 'aria-label': word('board') });
    board.appendChild(svg);
    grid(svg);
    var at = pieces(shownFen());
    lastMove().forEach(function (sq) {
      var p = xy(sq);
      el('circle', { cx: p[0], cy: p[1], r: 5.6, 'class': 'last' }, svg);
    });
    var targets = selected ? targetsOf(selected) : [];
    for (var r = 9; r >= 0; r--) {
      for (var f = 0; f < 9; f++) {
        var sq = FILES[f] + r;
        var p = xy(sq);
        var ch = at[sq];
        var label = sq + ', ' + word('empty');
        if (ch) {
          var side = isRed(ch) ? 'red' : 'black';
          label = sq + ', ' + word(side) + ' ' + word(NAME[ch.toUpperCase()] || ch);
          var g = el('g', { 'class': 'piece ' + side, 'data-piece': ch, 'data-at': sq }, svg);
          el('circle', { cx: p[0], cy: p[1], r: 4.8 }, g);
          var t = el('text', { x: p[0], y: p[1] + 0.2 }, g);
          t.textContent = GLYPH[ch] || ch;
          if (view.check && !replaying() && (ch === 'K' || ch === 'k') && side === view.to_move) {
            el('circle', { cx: p[0], cy: p[1], r: 5.4, 'class': 'checked' }, svg);
          }
        }
        if (sq === selected) {
          el('circle', { cx: p[0], cy: p[1], r: 5.4, 'class': 'selected' }, svg);
        }
        if (targets.indexOf(sq) >= 0) {
          el('circle', { cx: p[0], cy: p[1], r: ch ? 5.4 : 1.6, 'class': 'target' }, svg);
        }
        var hit = el('circle', {
          cx: p[0], cy: p[1], r: 5.5, 'class': 'hit', tabindex: 0, role: 'button',
          'aria-label': label, 'data-sq': sq
        }, svg);
        hit.addEventListener('click', point.bind(null, sq));
        hit.addEventListener('keydown', function (e) {
          if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.target.dispatchEvent(new Event('click')); }
        });
      }
    }
  }

  function fmt(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(s / 60);
    var h = Math.floor(m / 60);
    var two = function (n) { return (n < 10 ? '0' : '') + n; };
    return h ? h + ':' + two(m % 60) + ':' + two(s % 60) : m + ':' + two(s % 60);
  }

  function clocks() {
    if (!view) { return; }
    var bottom = flipped ? 'black' : 'red';
    var sides = { top: bottom === 'red' ? 'black' : 'red', bottom: bottom };
    ['top', 'bottom'].forEach(function (pos) {
      var side = sides[pos];
      var box = $(pos);
      box.querySelector('.name').textContent = word(side) + ' · ' + view[side];
      box.classList.toggle('to-move', !view.over && view.to_move === side);
      var c = box.querySelector('.clock');
      if (!view.clock) { c.textContent = ''; return; }
      var ms = view.clock[side + '_ms'];
      if (view.clock.running === side) { ms -= Date.now() - viewAt; }
      c.textContent = fmt(ms);
      c.classList.toggle('low', ms < 30000);
    });
  }

  function render() {
    if (flipped === null) { flipped = view.you === 'black'; }
    document.documentElement.lang = view.lang;
    $('flip').textContent = word('flip');
    $('send').textContent = word('send');
    $('typed-text').placeholder = word('typed');
    $('typed').hidden = mode !== 'p' || !!view.over;
    var status;
    if (view.over) {
      status = view.over;
    } else if (!view.you) {
      status = word('watching') + (view.check ? ' · ' + word('check') : '');
    } else if (view.you === view.to_move) {
      status = word('your_move') + (view.check ? ' · ' + word('check') : '');
    } else {
      status = word('their_move');
    }
    $('status').textContent = status;
    var playing = mode === 'p' && !!view.you && !view.over;
    $('actions').hidden = !playing;
    $('act-draw').textContent = word('offer_draw');
    $('act-takeback').textContent = word('takeback');
    $('act-resign').textContent = word('resign');
    var asked = view.draw_offer && view.draw_offer !== view.you ? 'draw_offered'
      : view.takeback && view.takeback !== view.you ? 'takeback_asked' : null;
    $('offer').hidden = !(playing && asked);
    $('offer-text').textContent = asked ? word(asked) : '';
    $('offer-accept').textContent = word('accept');
    $('offer-decline').textContent = word('decline');
    var list = $('moves');
    list.textContent = '';
    var marks = replaying() ? view.replay.marks : [];
    var moveText = function (i) { return view.moves[i] + (marks[i] || ''); };
    for (var i = 0; i < view.moves.length; i += 2) {
      var li = document.createElement('li');
      li.textContent = moveText(i) + (view.moves[i + 1] ? '  ' + moveText(i + 1) : '');
      if (replaying() && ply > 0 && Math.floor((ply - 1) / 2) === i / 2) { li.className = 'now'; }
      list.appendChild(li);
    }
    showReplay();
    list.setAttribute('data-count', String(view.moves.length));
    list.setAttribute('aria-label', word('moves'));
    if (selected && targetsOf(selected).length === 0) { selected = null; }
    draw();
    clocks();
  }

  // The evaluation from Red's side as a number of pawns, held within ±10 (mates at the ends).
  function evalOf(t) {
    if (!t) { return 0; }
    if (t === '1-0') { return 10; }
    if (t === '0-1') { return -10; }
    if (t[0] === '#') { return t[1] === '-' ? -10 : 10; }
    var n = parseFloat(t);
    return isNaN(n) ? 0 : Math.max(-10, Math.min(10, n));
  }

  function showReplay() {
    var box = $('replay');
    box.hidden = !replaying();
    if (!replaying()) { return; }
    var n = view.replay.fens.length - 1;
    $('r-ply').textContent = ply + ' / ' + n;
    $('r-first').setAttribute('aria-label', word('first'));
    $('r-prev').setAttribute('aria-label', word('prev'));
    $('r-next').setAttribute('aria-label', word('next'));
    $('r-last').setAttribute('aria-label', word('last'));
    $('r-pgn').textContent = word('pgn');
    $('r-pgn').href = api + 'pgn';
    $('r-gif').textContent = word('gif');
    $('r-gif').href = api + 'gif';
    var graph = $('graph');
    graph.textContent = '';
    var evals = view.replay.evals;
    if (!evals.length) { return; }
    var w = 100, h = 20;
    var svg = el('svg', { viewBox: '0 0 ' + w + ' ' + h, preserveAspectRatio: 'none', role: 'img', 'aria-label': word('eval') }, graph);
    el('line', { x1: 0, y1: h / 2, x2: w, y2: h / 2, 'class': 'zero' }, svg);
    var x = function (i) { return evals.length > 1 ? i * w / (evals.length - 1) : 0; };
    var y = function (e) { return h / 2 - evalOf(e) * (h / 2 - 1) / 10; };
    el('polyline', { points: evals.map(function (e, i) { return x(i) + ',' + y(e); }).join(' '), 'class': 'line' }, svg);
    view.replay.marks.forEach(function (m, i) {
      if (m === '?' || m === '??') { el('circle', { cx: x(i + 1), cy: y(evals[i + 1]), r: 0.9, 'class': 'bad' }, svg); }
    });
    el('line', { x1: x(ply), y1: 0, x2: x(ply), y2: h, 'class': 'now' }, svg);
    svg.addEventListener('click', function (e) {
      var r = svg.getBoundingClientRect();
      step(Math.round((e.clientX - r.left) / r.width * (evals.length - 1)) - ply);
    });
  }

  function step(by) {
    if (!replaying()) { return; }
    var n = view.replay.fens.length - 1;
    ply = Math.max(0, Math.min(n, ply + by));
    selected = null;
    render();
  }

  function show(v) {
    if (v.replay && (ply === null || !view || !view.replay)) { ply = v.replay.fens.length - 1; }
    view = v;
    words = {};
    v.labels.forEach(function (kv) { words[kv[0]] = kv[1]; });
    viewAt = Date.now();
    render();
    if (v.over && stream) { stream.close(); stream = null; $('live').textContent = ''; }
  }

  function refused() {
    $('refused').hidden = false;
    $('status').textContent = '';
    $('typed').hidden = true;
    if (stream) { stream.close(); stream = null; }
  }

  // Inside Telegram: the launch data Telegram signed (in the address's fragment, or from
  // Telegram's own script when a client loads it) is traded for a link of this server.
  function launch() {
    if (mode !== 'tg') { return Promise.resolve(true); }
    var data = '';
    try { data = new URLSearchParams(location.hash.slice(1)).get('tgWebAppData') || ''; } catch (e) { data = ''; }
    if (!data && window.Telegram && window.Telegram.WebApp) { data = window.Telegram.WebApp.initData || ''; }
    return fetch(location.pathname, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ init_data: data })
    }).then(function (r) {
      if (!r.ok) { refused(); return false; }
      return r.json().then(function (a) {
        token = a.token;
        mode = a.mode;
        api = '../api/' + encodeURIComponent(token) + '/';
        return true;
      });
    }).catch(function () { refused(); return false; });
  }

  function load() {
    return fetch(api + 'state', { cache: 'no-store' }).then(function (r) {
      if (r.status === 401) { refused(); return null; }
      return r.ok ? r.json().then(show) : null;
    });
  }

  function send(text) {
    if (sending || mode !== 'p') { return; }
    sending = true;
    $('said').textContent = '';
    fetch(api + 'move', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: text })
    }).then(function (r) {
      if (r.status === 401) { refused(); return null; }
      return r.json();
    }).then(function (answer) {
      if (answer && !answer.played) { $('said').textContent = answer.said.join('\n'); }
      selected = null;
      return load();
    }).catch(function () {
      $('said').textContent = word('offline');
    }).then(function () { sending = false; });
  }

  function point(sq) {
    if (!view || view.over || mode !== 'p') { return; }
    if (selected && targetsOf(selected).indexOf(sq) >= 0) {
      send(selected + sq);
      return;
    }
    selected = targetsOf(sq).length ? (sq === selected ? null : sq) : null;
    draw();
  }

  function follow() {
    if (!window.EventSource) { return; }
    stream = new EventSource(api + 'events');
    stream.addEventListener('state', function (e) {
      $('live').textContent = '● ' + word('live');
      show(JSON.parse(e.data));
    });
    stream.onerror = function () {
      if (stream) { $('live').textContent = word('offline'); }
    };
  }

  $('act-draw').addEventListener('click', function () { send('/draw'); });
  $('act-takeback').addEventListener('click', function () { send('/takeback'); });
  $('act-resign').addEventListener('click', function () {
    if (window.confirm(word('confirm_resign'))) { send('/resign'); }
  });
  $('offer-accept').addEventListener('click', function () { send('/accept'); });
  $('offer-decline').addEventListener('click', function () { send('/decline'); });
  $('r-first').addEventListener('click', function () { step(-100000); });
  $('r-prev').addEventListener('click', function () { step(-1); });
  $('r-next').addEventListener('click', function () { step(1); });
  $('r-last').addEventListener('click', function () { step(100000); });
  document.addEventListener('keydown', function (e) {
    if (!replaying() || e.target.tagName === 'INPUT') { return; }
    if (e.key === 'ArrowLeft') { step(-1); } else if (e.key === 'ArrowRight') { step(1); }
  });
  $('flip').addEventListener('click', function () { flipped = !flipped; if (view) { render(); } });
  $('typed').addEventListener('submit', function (e) {
    e.preventDefault();
    var t = $('typed-text').value.trim();
    if (t) { $('typed-text').value = ''; send(t); }
  });
  setInterval(clocks, 250);
  launch().then(function (ok) {
    if (!ok) { return null; }
    return load().then(function () { if (view && !view.over) { follow(); } });
  });
})();
