// The replay page's script: rebuilds the tables from the embedded data and draws the one
// shown, the same way solver/pictures/svg.py draws a scene (same fans, same card defs).
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var W = data.card[0], H = data.card[1];
  var board = document.getElementById("board");
  var list = document.getElementById("moves");
  var slider = document.getElementById("slider");
  var playButton = document.getElementById("play");
  var current = 0, step = 0, timer = null, tables = [];

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (parent) parent.appendChild(node);
    return node;
  }

  // Every table of a line, whole: each step of the data lists only the piles it changed.
  function build(line) {
    var order = [], piles = {}, out = [];
    line.steps.forEach(function (s) {
      var marks = {};
      s.p.forEach(function (item) {
        var zone = data.geometries[item[0]][0];
        if (!(zone in piles)) order.push(zone);
        piles[zone] = [item[0], item[1]];
        if (item.length > 2) marks[zone] = [item[2], item[3]];
      });
      out.push({piles: order.map(function (z) { return piles[z]; }), marks: marks, caption: data.captions[s.c]});
    });
    return out;
  }

  function cardsOf(text) {
    var out = [];
    for (var i = 0; i < text.length; i += 2) {
      var suit = text.charAt(i + 1);
      out.push({name: text.charAt(i) + suit.toUpperCase(), up: suit === suit.toUpperCase()});
    }
    return out;
  }

  // as Pile.places in scene.py: cards below the fanned ones lie under the lowest of them
  function places(geometry, cards) {
    var steps = data.fans[geometry[3]], spread = geometry[4];
    var first = spread === null ? 0 : Math.max(0, cards.length - spread);
    var x = geometry[1], y = geometry[2], out = [];
    cards.forEach(function (card, i) {
      out.push([x, y]);
      if (i >= first) {
        var d = steps[card.up ? "up" : "down"];
        x += d[0]; y += d[1];
      }
    });
    return out;
  }

  function drawPile(parent, pile, mark) {
    var g = data.geometries[pile[0]], cards = cardsOf(pile[1]);
    var group = el("g", {"data-zone": g[0]}, parent);
    if (g[5]) el("text", {"class": "label", x: g[1], y: g[2] - 4}, group).textContent = g[5];
    if (!cards.length && g[7]) el("rect", {"class": "slot", x: g[1], y: g[2], width: W, height: H, rx: 5}, group);
    var at = places(g, cards), moved = mark ? mark[0] : 0;
    cards.forEach(function (card, i) {
      var isMoved = i >= cards.length - moved;
      var c = el("g", {"class": isMoved ? "card moved" : "card", "data-card": card.name,
                       "data-face": card.up ? "up" : "down",
                       transform: "translate(" + at[i][0] + "," + at[i][1] + ")"}, group);
      el("use", {href: "#sol-" + (card.up ? card.name : "back")}, c);
      if (isMoved) el("rect", {"class": "mark", x: -2, y: -2, width: W + 4, height: H + 4, rx: 6}, c);
    });
    var top = at.length ? at[at.length - 1] : [g[1], g[2]];
    if (mark && mark[1]) {
      el("rect", {"class": "from", x: top[0] - 3, y: top[1] - 3, width: W + 6, height: H + 6, rx: 7}, group);
    }
    if (g[6] && cards.length) {
      var badge = el("g", {"class": "count"}, group);
      el("rect", {x: top[0] + W - 22, y: top[1] + H - 15, width: 24, height: 15, rx: 7}, badge);
      el("text", {x: top[0] + W - 10, y: top[1] + H - 4}, badge).textContent = cards.length;
    }
  }

  function drawTable(table) {
    while (board.firstChild) board.removeChild(board.firstChild);
    var width = data.size[0], height = data.size[1] + data.top;
    board.setAttribute("viewBox", "0 0 " + width + " " + height);
    // no wider than the height left for it allows, so that the controls stay in view
    board.style.maxWidth = "min(64rem, calc((100vh - 9rem) * " + (width / height).toFixed(4) + "))";
    el("rect", {"class": "felt", width: width, height: height, rx: 6}, board);
    if (data.top && table.caption) el("text", {"class": "caption", x: 10, y: 15}, board).textContent = table.caption;
    var all = el("g", {transform: "translate(0," + data.top + ")"}, board);
    table.piles.forEach(function (pile) {
      drawPile(all, pile, table.marks[data.geometries[pile[0]][0]]);
    });
  }

  function line() { return data.lines[current]; }

  function show(k) {
    var moves = line().moves;
    step = Math.max(0, Math.min(moves.length, k));
    drawTable(tables[current][step]);
    slider.value = step;
    var items = list.children;
    for (var i = 0; i < items.length; i++) items[i].classList.toggle("current", i === step);
    var item = items[step];
    if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
    }
    var now = document.getElementById("now");
    if (step === 0) now.textContent = "The table at the start" + (moves.length ? " (" + moves.length + " moves follow)" : "");
    else {
      var m = moves[step - 1];
      now.textContent = "Move " + step + " of " + moves.length + ": " + m.t + "   [" + m.s + "]" + (m.n ? " \u2014 " + m.n : "");
    }
    if (step === moves.length) stop();
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.classList.remove("playing");
    playButton.lastChild.textContent = "Play";
    playButton.setAttribute("aria-label", "play");
  }

  function toggle() {
    if (timer !== null) { stop(); return; }
    if (step >= line().moves.length) show(0);
    timer = setInterval(function () { show(step + 1); }, 700);
    playButton.classList.add("playing");
    playButton.lastChild.textContent = "Pause";
    playButton.setAttribute("aria-label", "pause");
  }

  function fillList() {
    while (list.firstChild) list.removeChild(list.firstChild);
    var start = document.createElement("li");
    start.textContent = "start";
    list.appendChild(start);
    line().moves.forEach(function (m, i) {
      var li = document.createElement("li");
      li.textContent = (i + 1) + ". " + m.t + "  [" + m.s + "]";
      if (m.k) li.classList.add(m.k);
      if (m.n) {
        var note = document.createElement("span");
        note.className = "note";
        note.textContent = m.n;
        li.appendChild(note);
      }
      list.appendChild(li);
    });
    for (var i = 0; i < list.children.length; i++) {
      (function (k) {
        var li = list.children[k];
        li.tabIndex = 0;
        li.addEventListener("click", function () { stop(); show(k); });
        li.addEventListener("keydown", function (e) { if (e.key === "Enter") { stop(); show(k); } });
      })(i);
    }
    slider.max = line().moves.length;
  }

  function choose(k) {
    stop();
    current = k;
    var tabs = document.getElementById("lines").children;
    for (var i = 0; i < tabs.length; i++) tabs[i].classList.toggle("active", i === k);
    fillList();
    show(line().start);
  }

  data.lines.forEach(function (l, i) {
    tables.push(build(l));
    if (data.lines.length > 1) {
      var tab = document.createElement("button");
      tab.type = "button";
      tab.textContent = l.name;
      tab.addEventListener("click", function () { choose(i); });
      document.getElementById("lines").appendChild(tab);
    }
  });

  document.getElementById("first").addEventListener("click", function () { stop(); show(0); });
  document.getElementById("prev").addEventListener("click", function () { stop(); show(step - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); show(step + 1); });
  document.getElementById("last").addEventListener("click", function () { stop(); show(line().moves.length); });
  playButton.addEventListener("click", toggle);
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });

  var KEYS = {ArrowRight: function () { stop(); show(step + 1); }, ArrowLeft: function () { stop(); show(step - 1); },
              Home: function () { stop(); show(0); }, End: function () { stop(); show(line().moves.length); },
              " ": toggle};
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !(e.key in KEYS)) return;
    e.preventDefault();   // the page's keys, not the slider's or a focused button's
    KEYS[e.key]();
  });
  // a focused button would also take Space as a click when the key comes up
  document.addEventListener("keyup", function (e) { if (e.key === " ") e.preventDefault(); });

  choose(0);
  document.body.setAttribute("data-ready", "1");
}());
