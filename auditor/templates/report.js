/* The report's enhancements: filters, search, pagination, sortable summaries recomputed for
   the findings shown, replays beside their findings, and printing what is shown. A small
   report reads in full without any of this; a large one (data.lazy) holds its findings and
   replays only as data, and this script draws the ones shown. Record text is only ever set
   with textContent or moved as DOM nodes, never parsed as HTML. */
(function () {
  "use strict";
  var dataNode = document.getElementById("report-data");
  if (!dataNode) { return; }
  var data = JSON.parse(dataNode.textContent);
  var pageSize = data.pageSize || 25;
  var top = data.summaryTop || 15;
  var records = data.findings || [];
  var form = document.getElementById("filters");
  var status = document.getElementById("filter-status");
  var printNote = document.getElementById("print-filter");
  var SEVERITIES = ["high", "medium", "low"];
  var SHIFTS = ["day", "swing", "grave", "(none)"];
  var i;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function add(parent) {
    for (var a = 1; a < arguments.length; a++) {
      var child = arguments[a];
      if (child === null || child === undefined) { continue; }
      parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return parent;
  }
  function plural(n, noun) { return n.toLocaleString("en") + " " + noun + (n === 1 ? "" : "s"); }
  /* Money is exact: an amount's text ("-12.575") as a BigInt of 10^-SCALE units, added
     only to amounts of its own currency, and written back with at least two decimals. */
  var SCALE = 12, UNIT = BigInt("1" + "0".repeat(SCALE)), NONE = BigInt(0);
  function units(text) {
    if (!text) { return NONE; }
    var negative = text.charAt(0) === "-";
    var parts = (negative ? text.slice(1) : text).split(".");
    var value = BigInt(parts[0] || "0") * UNIT + BigInt(((parts[1] || "") + "0".repeat(SCALE)).slice(0, SCALE));
    return negative ? -value : value;
  }
  function money(amount) {
    var negative = amount < NONE, value = negative ? -amount : amount;
    var fraction = (value % UNIT).toString().padStart(SCALE, "0").replace(/0+$/, "");
    while (fraction.length < 2) { fraction += "0"; }
    return (negative ? "-" : "") + (value / UNIT).toLocaleString("en") + "." + fraction;
  }
  function inCurrency(amount, currency) { return money(amount) + " " + (currency || "(undeclared)"); }
  function signed(text, currency) {
    var value = units(text);
    var number = value > NONE ? "+" + money(value) : value < NONE ? "\u2212" + money(-value) : money(NONE);
    return number + " " + (currency || "(undeclared)");
  }
  function netWords(text) {
    var value = units(text);
    return value > NONE ? "paid to the player" : value < NONE ? "collected from the player" : "returned (push or void)";
  }
  /* Under- and over-paid per currency (the key "" is undeclared): never added across. */
  function addMoney(totals, r) {
    if (r.xu === undefined) { r.xu = units(r.x); }  /* parsed once, for every view */
    var difference = r.xu;
    if (difference === NONE) { return false; }
    var entry = totals[r.cu || ""] || (totals[r.cu || ""] = { under: NONE, over: NONE });
    if (difference < NONE) { entry.under -= difference; } else { entry.over += difference; }
    return true;
  }
  function currencies(totals) {
    return Object.keys(totals).sort(function (a, b) { return (a === "") - (b === "") || (a < b ? -1 : a > b ? 1 : 0); });
  }
  function paid(totals, kind, empty) {
    var parts = currencies(totals).filter(function (c) { return totals[c][kind] !== NONE; })
      .map(function (c) { return inCurrency(totals[c][kind], c); });
    return parts.length ? parts.join(", ") : empty;
  }
  /* A table's money cell: each currency's amount kept whole, the cell wrapping between. */
  function amountsCell(className, totals, kind) {
    var cell = el("td", className);
    currencies(totals).filter(function (c) { return totals[c][kind] !== NONE; }).forEach(function (c, at) {
      add(cell, at ? ", " : null, el("span", "amt", inCurrency(totals[c][kind], c)));
    });
    return cell;
  }
  /* Money columns sort currency by currency (declared codes first), never by a sum. */
  function compareMoney(a, b, kind) {
    var x = currencies(a).filter(function (c) { return a[c][kind] !== NONE; });
    var y = currencies(b).filter(function (c) { return b[c][kind] !== NONE; });
    for (var at = 0; at < Math.min(x.length, y.length); at++) {
      if (x[at] !== y[at]) { return x[at] < y[at] ? 1 : -1; }
      var d = a[x[at]][kind] - b[y[at]][kind];
      if (d !== NONE) { return d > NONE ? 1 : -1; }
    }
    return x.length - y.length;
  }

  var needsScript = document.getElementById("needs-js");
  if (needsScript) { needsScript.hidden = true; }

  /* ---- findings: one item per record; its element is the page's (small report) or drawn
     when first shown (large report) ---- */
  var items = records.map(function (record) {
    return { r: record, element: data.lazy ? null : document.getElementById("f-" + record.n),
             match: true, text: null };
  });
  var groups = [];
  var groupNodes = document.querySelectorAll("details.group");
  for (i = 0; i < groupNodes.length; i++) {
    var node = groupNodes[i];
    var list = node.querySelector("ol.findings");
    var pager = el("div", "pager");
    var more = el("button"); more.type = "button";
    var all = el("button", null, "Show all"); all.type = "button";
    var info = el("span");
    add(pager, info, more, all);
    list.parentNode.insertBefore(pager, list.nextSibling);
    groups[Number(node.getAttribute("data-group"))] = {
      element: node, list: list, items: [], shown: pageSize, pager: pager, more: more,
      all: all, info: info, count: node.querySelector(".g-count"), matched: 0,
      money: node.querySelector(".g-money")
    };
  }
  items.forEach(function (item) { if (groups[item.r.g]) { groups[item.r.g].items.push(item); } });
  groups.forEach(function (group) {
    group.more.addEventListener("click", function () { group.shown += pageSize; paginate(group); });
    group.all.addEventListener("click", function () { group.shown = Infinity; paginate(group); });
  });

  function facts(r) {
    var p = el("p", "facts");
    if (r.k || r.t) { add(p, "Table ", el("b", null, r.k || r.t), " \u00b7 "); }
    if (r.r) { add(p, "round ", el("b", null, r.r), " \u00b7 "); }
    if (r.o) { add(p, el("b", null, r.o), " \u00b7 "); }
    /* the time on its own date where it is past midnight in a round begun before it */
    if (r.a || r.r) { add(p, el("b", null, r.a || "undated"), r.tm ? " " + r.tm + (r.td ? " on " + r.td : "") : "", " \u00b7 "); }
    if (r.d) { add(p, "dealer ", el("b", null, r.d), " \u00b7 "); }
    if (r.p) { add(p, "player ", el("b", null, r.p), " \u00b7 "); }
    if (r.m) { add(p, r.m); }
    return p;
  }

  function amounts(r) {
    var table = el("table", "amounts"), body = el("tbody");
    function row(label, value, words, className) {
      var tr = el("tr", className);
      var th = el("th", null, label); th.scope = "row";
      add(tr, th, el("td", "num", value === undefined ? "" : signed(value, r.cu)), words);
      body.appendChild(tr);
    }
    row("Owed by the rules", r.e, el("td", "muted", r.e === undefined ? "" : netWords(r.e)));
    row("Recorded", r.u, el("td", "muted", r.u === undefined ? "" : netWords(r.u)));
    if (r.x !== undefined) {
      var difference = units(r.x);
      row("Difference", r.x, el("td", null, difference < NONE ? "player under-paid " + inCurrency(-difference, r.cu)
        : difference > NONE ? "player over-paid " + inCurrency(difference, r.cu) : "none"),
        "diff" + (difference < NONE ? " under" : difference > NONE ? " over" : ""));
    }
    return add(table, body);
  }

  /* A finding as the template draws it (the same classes), from its record. */
  function draw(r) {
    var group = data.groups[r.g];
    var li = el("li", "finding"); li.id = "f-" + r.n;
    var text = el("div", "f-text");
    var ref = el("a", "ref", "F-" + String(r.n).padStart(4, "0")); ref.href = "#f-" + r.n;
    var head = add(el("p", "f-head"), ref, " ", el("span", "sev sev-" + r.s, r.s), " ",
                   el("span", "f-cite", group.citation));
    if (r.id) { add(head, " ", el("code", "f-id", r.id)); }
    if (r.w) { add(head, " ", el("span", "badge waived", "waived")); }
    if (r.b) { add(head, " ", el("span", "badge baseline-" + r.b.replace(" ", "-"), r.b)); }
    add(text, head);
    if (r.w) { text.appendChild(el("p", "waiver-note", r.w)); }
    add(text, el("p", "msg", r.msg));
    if (r.lt) {
      var line = add(el("p", "fault-line"), el("span", "ln", r.l));
      if (r.lt[0]) { add(line, " ", el("span", "tm", r.lt[0])); }
      add(line, " ", el("code", null, r.lt[1]));
      text.appendChild(line);
    }
    if (r.e !== undefined || r.u !== undefined) { text.appendChild(amounts(r)); }
    text.appendChild(facts(r));
    var where = add(el("p", "where"), el("span", "path", data.files[r.f]));
    if (r.l !== undefined) {
      add(where, ", line ", el("b", null, r.l));
      if (r.c) { add(where, ", column " + r.c); }
    }
    if (r.ev) { add(where, "; evidence on line" + (r.ev.length > 1 ? "s " : " ") + r.ev.join(", ")); }
    li.appendChild(text);
    if (r.rp !== undefined) {
      var replay = data.replays[r.rp];
      var details = el("details", "show-replay");
      details.setAttribute("data-replay", "r-" + replay.n);
      details.setAttribute("data-line", r.l === undefined ? "" : String(r.l));
      var link = el("a", null, "Replay " + replay.n); link.href = "#r-" + replay.n + "-steps";
      add(details, el("summary", null, "Replay of round " + replay.rd),
          add(el("div", "slot"), link, " in section 5 shows lines " + replay.a + "\u2013" + replay.z + " one by one."));
      add(li, details, el("p", "print-only", "Replayed in section 5, replay " + replay.n + "."));
    } else {
      li.appendChild(el("p", "no-replay muted", data.texts[r.nr] || ""));
    }
    return li;
  }

  function elementOf(item) {
    if (!item.element) { item.element = draw(item.r); }
    return item.element;
  }

  /* ---- filters ---- */
  function criteria() {
    if (!form) { return {}; }
    var get = function (name) { return form.elements[name] ? form.elements[name].value : ""; };
    return { citation: get("citation"), severity: get("severity"), table: get("table").trim(),
             dealer: get("dealer").trim(), player: get("player").trim(), game: get("game"),
             day: get("day"), shift: get("shift"), from: get("from"), to: get("to"),
             status: get("status"), finding: get("finding").trim(),
             q: get("q").trim().toLowerCase() };
  }

  /* Clears the filters without the form's reset event, whose deferred apply() would undo
     a page shown on purpose (a finding linked to, a bar clicked). */
  function clearFilters() {
    if (!form) { return; }
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.name && field.type !== "checkbox") { field.value = ""; }
    });
  }

  /* The citation a value of the citation filter stands for: a group's (its index), or one
     the page's address names that this report holds no finding of ("cite:" and it). */
  function citationOf(value) {
    if (value.indexOf("cite:") === 0) { return value.slice(5); }
    var group = data.groups[Number(value)];
    return group ? group.citation : value;
  }

  /* Sets one filter to a value as a link or the address names it: a citation by its text;
     a value a list does not hold (a night when the dealer made no finding) is added to it,
     and shows no finding, rather than being dropped and showing every one. */
  function setField(key, value) {
    var field = form.elements[key];
    if (!field) { return; }
    if (field.tagName !== "SELECT") { field.value = value; return; }
    var options = field.options, wanted = null;
    for (var o = 0; o < options.length; o++) {
      var text = key === "citation" ? options[o].getAttribute("data-citation") : options[o].value;
      if (text === value) { wanted = options[o]; }
    }
    if (!wanted && value !== "") {
      wanted = el("option", null, value + " (no finding here)");
      wanted.value = key === "citation" ? "cite:" + value : value;
      if (key === "citation") { wanted.setAttribute("data-citation", value); }
      field.appendChild(wanted);
    }
    field.value = wanted ? wanted.value : "";
  }

  function active(c) {
    return Object.keys(c).some(function (key) { return c[key] !== ""; });
  }

  var known = { table: {}, dealer: {}, player: {} };
  records.forEach(function (r) {
    if (r.k) { known.table[r.k] = true; }
    if (r.d) { known.dealer[r.d] = true; }
    if (r.p) { known.player[r.p] = true; }
  });
  /* Every table audited and every dealer on duty is known too, with findings or not: a
     link to a night when the dealer made none shows none, not every name holding it. */
  (data.inputs || []).forEach(function (input) { if (input[0]) { known.table[input[0]] = true; } });
  Array.prototype.forEach.call(document.querySelectorAll(".idlist .in-scope"), function (node) {
    known.dealer[node.textContent] = true;
  });

  /* A table, dealer or player typed in full is that one; part of a name is every one
     holding it. A name the page's address gives (a link from trends) is always that one:
     a player with no finding in this report is not known here, and P-1 must not show
     P-10's findings. */
  var fromAddress = { table: null, dealer: null, player: null };
  function named(value, wanted, kind) {
    if (!wanted) { return true; }
    if (known[kind][wanted] || fromAddress[kind] === wanted) { return value === wanted; }
    return (value || "").toLowerCase().indexOf(wanted.toLowerCase()) >= 0;
  }

  function searchText(item) {
    if (item.text === null) {
      var r = item.r;
      item.text = [data.groups[r.g].citation, r.msg, r.k, r.r, r.o, data.files[r.f], r.l, r.d,
                   r.a || "undated", r.m, r.id, r.p || "", r.gd || ""].join(" ").toLowerCase();
    }
    return item.text;
  }

  function matches(item, c) {
    var r = item.r;
    if (c.citation !== "" && String(r.g) !== c.citation) { return false; }
    if (c.severity && r.s !== c.severity) { return false; }
    if (!named(r.k, c.table, "table")) { return false; }
    if (!named(r.d, c.dealer, "dealer")) { return false; }
    if (!named(r.p, c.player, "player")) { return false; }
    if (c.finding && r.id !== c.finding) { return false; }
    if (c.game && r.m !== c.game) { return false; }
    /* The gaming day and shift are the casino's calendar: a night that crosses midnight
       is one gaming day. "(none)": the findings without one. */
    if (c.day && (r.gd || "(none)") !== c.day) { return false; }
    if (c.shift && (r.h || "(none)") !== c.shift) { return false; }
    /* Status: waived or open (not waived); new or persisting against the baseline. */
    if (c.status === "waived" || c.status === "open") { if ((r.w ? "waived" : "open") !== c.status) { return false; } }
    else if (c.status && r.b !== c.status) { return false; }
    /* From and To are gaming days, as the summary counts them (a run from before them:
       the date); an undated finding (a shoe with no date=) is kept by every date filter. */
    var day = r.gd || r.a;
    if (c.from && day && day < c.from) { return false; }
    if (c.to && day && day > c.to) { return false; }
    if (c.q) {
      var text = searchText(item), words = c.q.split(/\s+/);
      for (var w = 0; w < words.length; w++) {
        if (text.indexOf(words[w]) < 0) { return false; }
      }
    }
    return true;
  }

  function paginate(group) {
    var shown = [], matched = 0;
    group.items.forEach(function (item) {
      if (item.match) {
        matched += 1;
        if (matched <= group.shown) { shown.push(elementOf(item)); }
      }
    });
    group.list.replaceChildren.apply(group.list, shown);
    group.pager.hidden = matched <= shown.length;
    group.info.textContent = "Showing " + shown.length + " of " + matched;
    group.more.textContent = "Show " + Math.min(pageSize, matched - shown.length) + " more";
    return matched;
  }

  function describe(c) {
    var parts = [];
    if (c.citation !== "") { parts.push("citation " + citationOf(c.citation)); }
    ["severity", "table", "dealer", "player", "game", "status"].forEach(function (key) { if (c[key]) { parts.push(key + " " + c[key]); } });
    if (c.day) { parts.push("gaming day " + (c.day === "(none)" ? "none" : c.day)); }
    if (c.shift) { parts.push("shift " + (c.shift === "(none)" ? "none" : c.shift)); }
    ["from", "to", "finding"].forEach(function (key) { if (c[key]) { parts.push(key + " " + c[key]); } });
    if (c.q) { parts.push("search \u201c" + c.q + "\u201d"); }
    return parts.join(", ");
  }

  var current = { filtered: false, total: records.length, words: "" };

  function apply() {
    var c = criteria();
    var filtered = active(c);
    var total = 0, groupsMatched = 0;
    items.forEach(function (item) { item.match = matches(item, c); if (item.match) { total += 1; } });
    groups.forEach(function (group) {
      group.shown = pageSize;
      group.matched = paginate(group);
      if (group.matched) { groupsMatched += 1; }
      group.element.hidden = filtered && group.matched === 0;
      var count = group.items.length;
      group.count.textContent = filtered ? group.matched + " of " + plural(count, "finding") : plural(count, "finding");
      /* Its money: of the findings shown, each currency apart. */
      var money = {};
      group.items.forEach(function (item) { if (item.match) { addMoney(money, item.r); } });
      var under = paid(money, "under", ""), over = paid(money, "over", "");
      if (group.money) {
        group.money.textContent = (under ? "under-paid " + under : "") + (under && over ? " \u00b7 " : "") +
          (over ? "over-paid " + over : "");
      }
    });
    /* A narrow filter opens what it found: one citation, or few findings. */
    if (filtered && (total <= 60 || groupsMatched === 1)) {
      groups.forEach(function (group) { if (group.matched) { group.element.open = true; } });
    }
    current = { filtered: filtered, total: total, words: filtered ? describe(c) : "" };
    if (status) {
      status.textContent = filtered
        ? "Showing " + plural(total, "finding") + " of " + items.length.toLocaleString("en") + " (filtered)"
        : "Showing all " + plural(items.length, "finding");
    }
    if (printNote) {
      printNote.hidden = !filtered;
      printNote.textContent = filtered ? "Printed with filters (" + current.words + "): " + total + " of " + items.length + " findings." : "";
    }
    summarise();
    scopeTo(c);
    markReplays();
    writeAddress();
  }

  /* ---- the page's address: the filters as its fragment, URL-encoded like a query string
     (report.html#dealer=D-7&day=2026-11-21&shift=swing), read when the page opens or the
     fragment changes, and kept up to date as the filters change (history.replaceState),
     so that a link opens a night's report filtered. A fragment without "=" is a place in
     the page (#finding-ID, #f-12, #summary), as before. ---- */
  var ADDRESS = ["dealer", "table", "player", "citation", "severity", "game", "day", "shift",
                 "status", "from", "to", "finding", "q"];

  function isFilterAddress(fragment) { return fragment.indexOf("=") >= 0; }

  function addressOf() {
    var params = new URLSearchParams();
    ADDRESS.forEach(function (key) {
      var field = form.elements[key];
      if (!field) { return; }
      var value = key === "citation" ? (field.value === "" ? "" : citationOf(field.value)) : field.value.trim();
      if (value) { params.append(key, value); }
    });
    return params.toString();
  }

  /* The filters in the address; an empty fragment when none is on, a place left alone. */
  function writeAddress() {
    if (!form) { return; }
    var fragment = location.hash.slice(1);
    var state = current.filtered ? addressOf() : "";
    if (state === fragment || (!state && !isFilterAddress(fragment))) { return; }
    var url = location.href.split("#")[0] + (state ? "#" + state : "");
    try {
      history.replaceState(history.state, "", url);
    } catch (refused) {  /* a browser that keeps a file: page's history to itself */
      location.replace("#" + state);
    }
  }

  /* The filters the address names (true), or false when it names a place or nothing. */
  function readAddress() {
    var fragment = location.hash.slice(1);
    if (!form || !isFilterAddress(fragment)) { return false; }
    var params = new URLSearchParams(fragment);
    clearFilters();
    ADDRESS.forEach(function (key) {
      var value = params.get(key);
      if (value !== null) { setField(key, value.trim()); }
      if (key in fromAddress) { fromAddress[key] = value === null ? null : value.trim(); }
    });
    return true;
  }

  /* A view opened by its address: at its one finding (finding=ID), else at the findings. */
  function showFiltered() {
    var shown = criteria().finding ? items.filter(function (item) { return item.match; }) : [];
    var target = shown.length === 1 ? elementOf(shown[0]) : document.getElementById("findings");
    if (target && target.isConnected) { target.scrollIntoView(); }
  }

  /* ---- the scope: with filters on, who and what the view is about. The inputs in scope
     are those of the findings shown, and those holding rounds of the tables, game, dealer,
     dates, gaming day and shift the filters name; the masthead, house rules, dealers,
     figures, coverage and provenance show only them, so a filtered print names no other
     licensee, table, dealer or input. Every count of rounds (read, audited, not audited,
     judged by a check) is of the rounds the filters name: each input's rounds by dealer and
     hour (input[10]: [dealer, date, gaming day, shift, read, audited]); a run recorded
     before inputs kept them counts whole files, and the page says so. ---- */
  var inputs = data.inputs || [];
  var scoped = document.querySelectorAll(".in-scope[data-in]");
  var scopeTexts = document.querySelectorAll("[data-scope]");
  var scopeOriginals = Array.prototype.map.call(scopeTexts, function (node) {
    return Array.prototype.map.call(node.childNodes, function (n) { return n.cloneNode(true); });
  });
  var coverageRows = Array.prototype.map.call(document.querySelectorAll("#coverage tr[data-citation]"), function (row) {
    var rounds = row.querySelector(".cv-rounds"), found = row.querySelector(".cv-findings");
    return { row: row, rounds: rounds, found: found, roundsText: rounds.textContent, foundText: found.textContent };
  });
  var pageTitle = document.title;
  var licenseeTables = [];
  var gapNote = document.querySelector("#summary .verdict .gap");
  var completeNote = document.querySelector("#summary .verdict .complete");
  var scopeNoteNode = document.getElementById("scope-note");
  if (gapNote && !gapNote.hidden) { gapNote.setAttribute("data-gaps", ""); }
  var partialItems = Array.prototype.map.call(document.querySelectorAll("#provenance li.partial"), function (node) {
    var count = node.querySelector(".partial-count");
    return { node: node, count: count, text: count.textContent, at: Number(node.getAttribute("data-in")) };
  });
  var notAuditedRows = Array.prototype.slice.call(document.querySelectorAll("#provenance tr[data-dealer]"));

  function inputMatches(input, c) {
    if (c.table && !named(input[0], c.table, "table")) { return false; }
    if (c.game && input[1] !== c.game) { return false; }
    if (c.from && input[3] && input[3] < c.from) { return false; }
    if (c.to && input[2] && input[2] > c.to) { return false; }
    return true;
  }

  /* The filters that pick rounds (a citation, severity, player, status or search picks
     findings, not rounds). */
  function picksRounds(c) { return !!(c.table || c.game || c.from || c.to || c.dealer || c.day || c.shift); }
  function picksWithinFiles(c) { return !!(c.dealer || c.day || c.shift || c.from || c.to); }

  function entryMatches(entry, c) {
    if (c.dealer && !named(entry[0], c.dealer, "dealer")) { return false; }
    if (c.day && (entry[2] || "(none)") !== c.day) { return false; }
    if (c.shift && (entry[3] || "(none)") !== c.shift) { return false; }
    /* By gaming day, as findings are; undated rounds are kept by every date filter. */
    var day = entry[2] || entry[1];
    if (c.from && day && day < c.from) { return false; }
    if (c.to && day && day > c.to) { return false; }
    return true;
  }

  /* An input's rounds the filters name: read and audited, their dates and dealers;
     `exact` false where the input does not keep its rounds by dealer and hour. */
  function roundsOf(input, c) {
    var entries = input[10];
    if (!entries) {
      return { read: input[4], audited: input[5], dates: [input[2], input[3]], dealers: null, exact: false };
    }
    var found = { read: 0, audited: 0, dates: [], dealers: {}, exact: true };
    entries.forEach(function (entry) {
      if (!entryMatches(entry, c)) { return; }
      found.read += entry[4]; found.audited += entry[5];
      found.dates.push(entry[2] || entry[1]);
      if (entry[0]) { found.dealers[entry[0]] = true; }
    });
    return found;
  }

  function inScopeOf(c) {
    var inScope = {};
    items.forEach(function (item) { if (item.match && item.r.f < inputs.length) { inScope[item.r.f] = true; } });
    /* With a finding asked for, its input alone. Otherwise the inputs holding rounds the
       filters name; an input that keeps no rounds by dealer and hour (an older run) only
       for a table, game or dates, never for a dealer, gaming day or shift, which its dates
       cannot tell: no file of another night or shift is named. */
    if (picksRounds(c) && !c.finding) {
      inputs.forEach(function (input, at) {
        if (!inputMatches(input, c)) { return; }
        if (input[10]) {
          if (roundsOf(input, c).read > 0) { inScope[at] = true; }
        } else if (!c.dealer && !c.day && !c.shift) {
          inScope[at] = true;
        }
      });
    }
    return inScope;
  }

  function unique(values) {
    var seen = {};
    values.forEach(function (v) { if (v) { seen[v] = true; } });
    return Object.keys(seen).sort();
  }

  // Why rounds were read and not judged, as the page says it (the run's own reasons).
  function missedWhy() {
    var words = document.querySelector('[data-scope="gap-words"]');
    return (words && words.getAttribute("data-missed-why")) || "see what was not audited";
  }

  function scopeFigures(picked, dealers, c) {
    var tables = unique(picked.map(function (i) { return i[0]; }));
    var rounds = 0, audited = 0, unreadable = 0, undeclared = false, whole = 0, days = [];
    picked.forEach(function (i) {
      var scoped = roundsOf(i, c);
      rounds += scoped.read; audited += scoped.audited; unreadable += i[8];
      if (!scoped.exact && !i[8]) { whole += 1; }
      days = days.concat(scoped.dates);
      if (!i[8] && !i[9]) { undeclared = true; }
    });
    days = unique(days);
    var dates = days.length ? days[0] + (days[days.length - 1] !== days[0] ? " to " + days[days.length - 1] : "") : "";
    var currencyList = unique(picked.map(function (i) { return i[9]; }));
    var tableWords = tables.length ? " \u00b7 " + (tables.length === 1 ? "table " : "tables ") + tables.join(", ") : "";
    var missed = rounds - audited, gap = [];
    if (unreadable) { gap.push(plural(unreadable, "file") + " could not be read at all"); }
    if (missed) { gap.push(plural(missed, "round") + " read but not judged (" + missedWhy() + ")"); }
    return {
      subtitle: plural(picked.length, "file") + tableWords + (dates ? " \u00b7 " + dates : ""),
      files: String(picked.length) + (unreadable ? " (" + unreadable + " unreadable)" : ""),
      tables: String(tables.length) + (tables.length && tables.length <= 6 ? " " + tables.join(", ") : ""),
      games: unique(picked.map(function (i) { return i[1]; })).join(", ") || "\u2014",
      dates: dates || "\u2014",
      rounds: rounds.toLocaleString("en"), audited: audited.toLocaleString("en") + (missed ? " " + missed.toLocaleString("en") + " not" : ""),
      dealers: String(dealers),
      currencies: (currencyList.join(", ") || "not declared") + (currencyList.length && undeclared ? " (and undeclared)" : ""),
      "rounds-count": plural(rounds, "round"), "audited-count": plural(audited, "round"),
      "readable-count": plural(picked.length - unreadable, "file"), tableList: tables,
      "gap-words": gap.join("; "),
      "complete-words": "Every round in this view was read and audited (" + plural(rounds, "round") + ").",
      gaps: gap.length > 0, whole: whole, unreadable: unreadable, missed: missed
    };
  }

  /* What this view's counts of rounds are of, in words. */
  function scopeNote(c, figures, picked) {
    var within = [];
    if (c.dealer) { within.push("dealer " + c.dealer); }
    if (c.day) { within.push("gaming day " + (c.day === "(none)" ? "none" : c.day)); }
    if (c.shift) { within.push("shift " + (c.shift === "(none)" ? "none" : c.shift)); }
    if (c.from || c.to) { within.push("gaming days " + (c.from || "any") + " to " + (c.to || "any")); }
    var files = plural(picked.length, "file") + " in this view";
    var text = "Rounds read, audited and not audited, and the rounds each rule was applied to, count " +
      (within.length ? "only the rounds of " + within.join(", ") + " in the " + files : "every round of the " + files) + ".";
    if (!within.length && (c.citation !== "" || c.severity || c.player || c.status || c.q || c.finding)) {
      text += " A citation, severity, player, status, finding or search picks findings, not rounds.";
    }
    if (figures.whole && picksWithinFiles(c)) {
      text += " " + plural(figures.whole, "file") + " of this view " + (figures.whole === 1 ? "was" : "were") +
        " audited before rounds were kept by dealer and hour: " + (figures.whole === 1 ? "its" : "their") +
        " rounds are counted whole.";
    }
    return text;
  }

  function scopeTo(c) {
    var filtered = current.filtered;
    var inScope = filtered ? inScopeOf(c) : {};
    /* The dealers of the rounds in scope, where every input in scope keeps them. */
    var dealerSet = null;
    if (filtered) {
      dealerSet = {};
      inputs.forEach(function (input, at) {
        if (!inScope[at] || dealerSet === null) { return; }
        var found = roundsOf(input, c);
        if (!found.dealers) { dealerSet = null; return; }
        Object.keys(found.dealers).forEach(function (dealer) { dealerSet[dealer] = true; });
      });
    }
    var dealers = 0;
    Array.prototype.forEach.call(scoped, function (node) {
      var dealerNode = node.parentNode.classList.contains("idlist");
      node.hidden = filtered && (!node.getAttribute("data-in").split(" ").some(function (at) { return at !== "" && inScope[at]; }) ||
        (dealerNode && dealerSet !== null && !dealerSet[node.textContent]));
      if (!node.hidden && dealerNode) { dealers += 1; }
    });
    var first = true;  /* the masthead's licensees: no separator before the first shown */
    Array.prototype.forEach.call(document.querySelectorAll(".licensee > .in-scope"), function (licensee, at) {
      var sep = licensee.querySelector(".sep"), tables = licensee.querySelector(".licensee-tables");
      if (!licensee.hidden) { sep.hidden = first; first = false; }
      if (!licenseeTables[at]) { licenseeTables[at] = tables.textContent; }
      var keys = unique(licensee.getAttribute("data-in").split(" ").filter(function (i) { return inScope[i]; })
        .map(function (i) { return inputs[i][0]; }));
      tables.textContent = filtered ? plural(keys.length, "table") : licenseeTables[at];
    });
    var picked = inputs.filter(function (input, at) { return inScope[at]; });
    var figures = filtered ? scopeFigures(picked, dealers, c) : null;
    Array.prototype.forEach.call(scopeTexts, function (node, at) {
      if (!filtered) {
        node.replaceChildren.apply(node, scopeOriginals[at].map(function (n) { return n.cloneNode(true); }));
      } else {
        node.textContent = figures[node.getAttribute("data-scope")];
      }
    });
    /* The sentence about what was not audited: the one true of the view. */
    if (gapNote) {
      var gaps = filtered ? figures.gaps : gapNote.hasAttribute("data-gaps");
      gapNote.hidden = !gaps;
      gapNote.parentNode.classList.toggle("verdict-gaps", gaps);
    }
    if (completeNote) { completeNote.hidden = filtered ? figures.gaps : gapNote && gapNote.hasAttribute("data-gaps"); }
    if (scopeNoteNode) {
      scopeNoteNode.hidden = !filtered;
      scopeNoteNode.textContent = filtered ? scopeNote(c, figures, picked) : "";
    }
    [["#provenance .gaps-unreadable", figures && figures.unreadable], ["#provenance .gaps-partial", figures && figures.missed],
     ["#provenance .gaps-rest", figures && figures.gaps], ["#provenance .view-complete", figures && !figures.gaps]].forEach(function (part) {
      var node = document.querySelector(part[0]);
      if (!node) { return; }
      if (!node.hasAttribute("data-was-hidden")) { node.setAttribute("data-was-hidden", node.hidden ? "1" : "0"); }
      node.hidden = filtered ? !part[1] : node.getAttribute("data-was-hidden") === "1";
    });
    partialItems.forEach(function (entry) {
      if (!filtered) { entry.count.textContent = entry.text; entry.node.classList.remove("out-of-view"); return; }
      var input = inputs[entry.at], found = input ? roundsOf(input, c) : null;
      var missed = found ? found.read - found.audited : 0;
      entry.node.classList.toggle("out-of-view", !missed);
      entry.count.textContent = found ? plural(missed, "round") + " of " + found.read.toLocaleString("en") + " not audited" +
        (found.exact ? "" : " (the whole file)") : entry.text;
    });
    notAuditedRows.forEach(function (row) {
      var when = [row.getAttribute("data-dealer"), row.getAttribute("data-date"), row.getAttribute("data-day"), row.getAttribute("data-shift")];
      row.classList.toggle("out-of-view", filtered && !entryMatches(when, c));
    });
    document.title = filtered ? "Blackjack compliance audit" + (figures.tableList.length ? " \u2014 " + figures.tableList.join(", ") : "") + " (filtered)" : pageTitle;
    var found = {};
    items.forEach(function (item) { if (item.match) { var cite = data.groups[item.r.g].citation; found[cite] = (found[cite] || 0) + 1; } });
    coverageRows.forEach(function (entry) {
      if (!filtered) { entry.rounds.textContent = entry.roundsText; entry.found.textContent = entry.foundText; return; }
      var games = entry.row.getAttribute("data-games");
      if (games !== null) {  /* a check: the rounds of the inputs in scope it judged */
        var list = games.split(" "), record = entry.row.getAttribute("data-citation").indexOf("record:") === 0;
        var unreadable = entry.row.getAttribute("data-unreadable") === "1", rounds = 0;
        picked.forEach(function (input) {
          if (input[8]) { return; }
          var found = roundsOf(input, c);
          if (input[1] ? list.indexOf(input[1]) >= 0 : record) { rounds += found.audited + (unreadable ? found.read - found.audited : 0); }
        });
        entry.rounds.textContent = rounds.toLocaleString("en");
      }
      entry.found.textContent = found[entry.row.getAttribute("data-citation")] || "";
    });
  }

  /* ---- the summary, counted from the findings shown ---- */
  var figures = document.querySelectorAll("[data-figure]");
  var originals = [];
  for (i = 0; i < figures.length; i++) {
    originals.push(Array.prototype.map.call(figures[i].childNodes, function (n) { return n.cloneNode(true); }));
  }
  var summaryNote = document.getElementById("summary-filter");
  var wholeRun = document.querySelectorAll(".whole-run");
  var wholeRunNote = document.querySelector(".whole-run-note");

  function figuresOf(shown) {
    var result = { findings: shown.length, high: 0, medium: 0, low: 0, paid: {}, money: 0 };
    var rounds = {}, citations = {};
    shown.forEach(function (item) {
      var r = item.r;
      result[r.s] += 1;
      citations[r.g] = true;
      if (r.r) { rounds[r.f + "\u0000" + r.r] = true; }
      if (addMoney(result.paid, r)) { result.money += 1; }
    });
    result.rounds = Object.keys(rounds).length;
    result.citations = Object.keys(citations).length;
    return result;
  }

  function summarise() {
    var shown = items.filter(function (item) { return item.match; });
    var totals = current.filtered ? figuresOf(shown) : null;
    for (var f = 0; f < figures.length; f++) {
      var figure = figures[f], key = figure.getAttribute("data-figure");
      if (!current.filtered) {
        figure.replaceChildren.apply(figure, originals[f].map(function (n) { return n.cloneNode(true); }));
        continue;
      }
      var text;
      if (key === "findings") { text = plural(totals.findings, "finding"); }
      else if (key === "rounds") { text = plural(totals.rounds, "round"); }
      else if (key === "count") { text = totals.findings.toLocaleString("en"); }
      else if (key === "citations") { text = plural(totals.citations, "citation"); }
      else if (key === "under" || key === "over") { text = paid(totals.paid, key, "none"); }
      else if (key === "money") {
        text = totals.money ? "Players were under-paid " + paid(totals.paid, "under", "none") + " and over-paid " + paid(totals.paid, "over", "none") +
          " in " + plural(totals.money, "wrong settlement") + "." : "No finding shown involves a wrong amount of money.";
      } else { text = String(totals[key]); }
      figure.textContent = text;
    }
    if (summaryNote) {
      summaryNote.hidden = !current.filtered;
      summaryNote.textContent = current.filtered ? "Filtered (" + current.words + "): this summary counts the " +
        plural(current.total, "finding") + " shown, of " + items.length.toLocaleString("en") + " in the audit." : "";
    }
    Array.prototype.forEach.call(wholeRun, function (part) { part.hidden = current.filtered; });
    if (wholeRunNote) { wholeRunNote.hidden = !current.filtered; }
    tables.forEach(function (table) { table.rows = rowsOf(table.dimension, shown); drawTable(table); });
  }

  function keyOf(dimension, r) {
    if (dimension === "citation") { return r.g; }
    if (dimension === "table") { return r.k || "(none)"; }
    if (dimension === "dealer") { return r.d || "(none)"; }
    if (dimension === "shift") { return r.h || "(none)"; }
    return r.gd || r.a || "undated";  /* the gaming day; a run from before them: the date */
  }

  function rowsOf(dimension, shown) {
    var byKey = {}, rows = [];
    shown.forEach(function (item) {
      var key = keyOf(dimension, item.r);
      var row = byKey[key];
      if (!row) {
        row = byKey[key] = { key: key, label: dimension === "citation" ? data.groups[key].citation : key,
                             title: dimension === "citation" ? data.groups[key].title : "",
                             findings: 0, high: 0, medium: 0, low: 0, money: {}, paid: 0 };
        rows.push(row);
      }
      row.findings += 1;
      row[item.r.s] += 1;
      if (addMoney(row.money, item.r)) { row.paid += 1; }
    });
    return rows;
  }

  /* Each summary table: sortable by any column, its top rows with "show all", and printed
     as its top rows by findings and money with the rest left to summary.csv. */
  var COLUMNS = ["label", "title", "bar", "findings", "high", "medium", "low", "under", "over"];
  var tables = Array.prototype.map.call(document.querySelectorAll("table.summary[data-dimension]"), function (node) {
    var dimension = node.getAttribute("data-dimension");
    var columns = COLUMNS.filter(function (c) { return c !== "title" || dimension === "citation"; });
    var table = { node: node, dimension: dimension, columns: columns, rows: [], all: false,
                  sort: dimension === "table" || dimension === "dealer" ? { key: "findings", desc: true } : { key: "order", desc: false },
                  note: node.parentNode.querySelector(".top-note"), button: el("button", "show-rows") };
    table.button.type = "button";
    table.button.addEventListener("click", function () { table.all = !table.all; drawTable(table); });
    node.parentNode.insertBefore(table.button, node.nextSibling);
    if (!table.note) {
      table.note = el("p", "top-note");
      node.parentNode.insertBefore(table.note, table.button.nextSibling);
    }
    var heads = node.querySelectorAll("thead th");
    Array.prototype.forEach.call(heads, function (th, index) {
      var key = columns[index] === "bar" ? "findings" : columns[index];
      th.classList.add("sortable");
      th.tabIndex = 0;
      th.title = "Sort by this column";
      var sort = function () {
        var desc = key !== "label" && key !== "title";
        table.sort = table.sort.key === key ? { key: key, desc: !table.sort.desc } : { key: key, desc: desc };
        drawTable(table);
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (event) { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(); } });
    });
    table.heads = heads;
    return table;
  });

  function order(dimension, row) {
    if (dimension === "citation") { return row.key; }
    if (dimension === "shift") { var at = SHIFTS.indexOf(row.key); return at < 0 ? SHIFTS.length : at; }
    return row.label;
  }

  function compare(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  function ranked(rows) {
    return rows.slice().sort(function (a, b) {
      return b.findings - a.findings || b.paid - a.paid || compare(a.label, b.label);
    });
  }

  function bar(row, largest) {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 100 10"); svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("width", "100%"); svg.setAttribute("height", "12"); svg.setAttribute("aria-hidden", "true");
    var x = 0;
    SEVERITIES.forEach(function (severity) {
      var width = 100 * row[severity] / largest;
      if (width) {
        var rect = document.createElementNS(ns, "rect");
        rect.setAttribute("x", x.toFixed(2)); rect.setAttribute("y", "0");
        rect.setAttribute("width", width.toFixed(2)); rect.setAttribute("height", "10");
        rect.setAttribute("class", "fill-" + severity);
        svg.appendChild(rect);
      }
      x += width;
    });
    return svg;
  }

  function drawTable(table) {
    var dimension = table.dimension, key = table.sort.key, sign = table.sort.desc ? -1 : 1;
    var rows = table.rows.slice().sort(function (a, b) {
      var first = key === "order" ? compare(order(dimension, a), order(dimension, b))
        : key === "label" || key === "title" ? compare(a[key], b[key])
        : key === "under" || key === "over" ? compareMoney(a.money, b.money, key) : a[key] - b[key];
      return sign * first || compare(order(dimension, a), order(dimension, b));
    });
    var printed = {};
    ranked(table.rows).slice(0, top).forEach(function (row) { printed[row.key] = true; });
    var largest = Math.max.apply(null, table.rows.map(function (r) { return r.findings; }).concat([1]));
    var linked = dimension === "citation" || dimension === "table" || dimension === "dealer" ||
      dimension === "shift";
    var body = el("tbody");
    rows.forEach(function (row, index) {
      var offPage = !table.all && index >= top;
      /* A row neither on the screen's page nor among the printed top is not drawn: a
         night's dealer table is hundreds of rows. */
      if (offPage && !printed[row.key]) { return; }
      var tr = el("tr");
      if (!printed[row.key]) { tr.classList.add("beyond-top"); }
      if (offPage) { tr.classList.add("beyond-page"); }
      var th = el("th"); th.scope = "row";
      if (linked && row.label !== "(none)") {
        var a = el("a", null, row.label);
        a.href = dimension === "citation" ? "#c-" + row.key : "#findings";
        a.setAttribute("data-filter", dimension);
        a.setAttribute("data-value", row.label);
        th.appendChild(a);
      } else { th.textContent = row.label; }
      tr.appendChild(th);
      if (dimension === "citation") { tr.appendChild(el("td", "title", row.title)); }
      add(tr, add(el("td", "barcell"), bar(row, largest)), el("td", "num strong", row.findings),
          el("td", "num", row.high || ""), el("td", "num", row.medium || ""), el("td", "num", row.low || ""),
          amountsCell("num under", row.money, "under"), amountsCell("num over", row.money, "over"));
      body.appendChild(tr);
    });
    var old = table.node.querySelector("tbody");
    table.node.replaceChild(body, old);
    Array.prototype.forEach.call(table.heads, function (th, index) {
      var column = table.columns[index] === "bar" ? "findings" : table.columns[index];
      th.setAttribute("aria-sort", column === key ? (table.sort.desc ? "descending" : "ascending") : "none");
    });
    var long = table.rows.length > top;
    table.button.hidden = !long;
    table.button.textContent = table.all ? "Show the top " + top : "Show all " + table.rows.length.toLocaleString("en");
    table.note.hidden = !long;
    table.note.textContent = long ? "Printed: the " + top + " rows with the most findings (and money) of " +
      table.rows.length.toLocaleString("en") + "; summary.csv holds every row." : "";
  }

  /* ---- replays ---- */
  var replayNodes = document.querySelectorAll("#replays details.replay");

  /* Which replays print: with filters on, only those of the findings shown. */
  var replayFiltered = document.querySelector("#replays .replay-filtered");
  var replayCount = document.querySelector("#replays .replay-count");
  function markReplays() {
    var wanted = {}, count = 0;
    items.forEach(function (item) { if (item.match && item.r.rp !== undefined && !wanted[item.r.rp]) { wanted[item.r.rp] = true; count += 1; } });
    Array.prototype.forEach.call(replayNodes, function (node) {
      node.classList.toggle("not-printed", current.filtered && !wanted[node.getAttribute("data-index")]);
    });
    if (replayFiltered) {
      replayFiltered.hidden = !current.filtered;
      replayCount.hidden = current.filtered;
      replayFiltered.textContent = current.filtered ? "Filtered (" + current.words + "): " + plural(count, "round") +
        " replayed here " + (count === 1 ? "holds" : "hold") + " the findings shown, of " + replayNodes.length.toLocaleString("en") +
        " in the report; printed, only " + (count === 1 ? "it is" : "they are") + " printed." : "";
    }
  }

  /* A large report's replay, drawn from its data: the round as aligned text, the fault and
     evidence lines marked, the whole table after each fault. */
  function drawReplay(body, replay) {
    var pre = el("pre", "lean");
    replay.rows.forEach(function (row) {
      var line = row[0], text = row[1], supports = row[2], faults = row[3], state = row[4];
      if (faults) {
        var span = el("span", "fault", text); span.setAttribute("data-l", line);
        add(pre, span, "\n");
        faults.forEach(function (fault) {
          var a = el("a", null, fault[0]); a.href = "#" + fault[1];
          add(pre, "    \u25b2 ", a, " " + fault[2] + " " + fault[3] + ": " + fault[4] + "\n");
        });
        add(pre, "      the table after line " + line + ":\n");
        state.forEach(function (entry) { add(pre, "        " + entry + "\n"); });
      } else if (supports && supports.length) {
        var ev = el("span", "ev", text + "  \u2190 evidence, " + supports.join(", ")); ev.setAttribute("data-l", line);
        add(pre, ev, "\n");
      } else {
        add(pre, text + "\n");
      }
    });
    body.replaceChildren(pre);
    body.setAttribute("data-drawn", "1");
  }

  function replayBody(id) {
    var body = document.getElementById(id + "-steps");
    if (body && data.lazy && !body.getAttribute("data-drawn")) {
      var holder = body.closest("details.replay");
      drawReplay(body, data.replays[Number(holder.getAttribute("data-index"))]);
    }
    return body;
  }

  /* A finding's replay: the round's replay (made once per round) is copied beside it, with
     this finding's line outlined. */
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.classList || !details.open) { return; }
    if (details.classList.contains("replay")) { replayBody(details.id); return; }
    if (!details.classList.contains("show-replay")) { return; }
    var slot = details.querySelector(".slot");
    if (!slot || slot.getAttribute("data-filled")) { return; }
    var source = replayBody(details.getAttribute("data-replay"));
    if (!source) { return; }
    var copy = source.querySelector("table.steps, pre.lean").cloneNode(true);
    var line = details.getAttribute("data-line");
    var marked = copy.querySelectorAll("[data-l]");
    for (var r = 0; r < marked.length; r++) {
      if (marked[r].getAttribute("data-l") === line) { marked[r].classList.add("this"); }
    }
    slot.replaceChildren(copy);
    slot.setAttribute("data-filled", "1");
  }, true);

  if (form) {
    form.hidden = false;
    var timer = null;
    form.addEventListener("input", function (event) {
      var name = event.target && event.target.name;
      if (name === "print-replays") { return; }
      if (name in fromAddress) { fromAddress[name] = null; }  /* typed: part of a name again */
      if (name === "q" || name === "table" || name === "dealer" || name === "player" || name === "finding") {
        clearTimeout(timer);
        timer = setTimeout(apply, 150);
      } else {
        apply();
      }
    });
    form.addEventListener("change", function (event) {
      if (event.target && event.target.name === "print-replays") {
        document.body.classList.toggle("print-without-replays", !event.target.checked);
        return;
      }
      clearTimeout(timer);
      apply();
    });
    form.addEventListener("reset", function () {
      setTimeout(function () {
        var replays = form.elements["print-replays"];
        document.body.classList.toggle("print-without-replays", !!replays && !replays.checked);
        apply();
      }, 0);
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    form.addEventListener("click", function (event) {
      var action = event.target && event.target.getAttribute("data-action");
      if (!action) { return; }
      groups.forEach(function (group) { if (!group.element.hidden) { group.element.open = action === "expand"; } });
    });
  }

  /* A row of a summary table, or a citation of the coverage table, filters the findings. */
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("[data-filter]") : null;
    if (!link || !form) { return; }
    var key = link.getAttribute("data-filter");
    var value = link.getAttribute("data-value");
    var field = form.elements[key];
    if (!field) { return; }
    event.preventDefault();
    clearFilters();
    setField(key, value);
    apply();
    document.getElementById("findings").scrollIntoView();
  });

  /* Going to a finding or a replay opens what holds it and shows its page. */
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) { return; }
    var named = /^finding-(.+)$/.exec(id);  /* by stable ID: an incident's evidence link */
    if (named) {
      var at = items.findIndex(function (it) { return it.r.id === named[1]; });
      if (at >= 0) { id = "f-" + (at + 1); }
    }
    var found = /^f-(\d+)$/.exec(id);
    var item = found ? items[Number(found[1]) - 1] : null;
    if (item && (!item.element || !item.element.isConnected)) {
      if (!item.match) { clearFilters(); apply(); }
      var group = groups[item.r.g];
      var position = group.items.filter(function (it) { return it.match; }).indexOf(item);
      group.shown = Math.max(group.shown, position + 1);
      paginate(group);
    }
    if (/^r-\d+(-steps)?$/.test(id)) { replayBody(id.replace(/-steps$/, "")); }
    var target = document.getElementById(id);
    if (!target) { return; }
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
    }
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", function () {
    if (readAddress()) { apply(); showFiltered(); return; }
    reveal();
    writeAddress();  /* a place gone to with filters on: the address keeps the filters */
  });

  /* Printing: what is shown. Every finding the filters let through (not only the page on
     screen), everything open, and the replays of those findings unless left out. */
  var closed = [];
  var paged = [];
  window.addEventListener("beforeprint", function () {
    groups.forEach(function (group) {
      if (group.shown !== Infinity && group.matched > group.shown) {
        paged.push([group, group.shown]);
        group.shown = Infinity;
        paginate(group);
      }
    });
    closed = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"),
      function (d) { return !d.classList.contains("show-replay"); });
    closed.forEach(function (d) { d.open = true; });
    var withReplays = !document.body.classList.contains("print-without-replays");
    Array.prototype.forEach.call(replayNodes, function (node) {
      if (withReplays && !node.classList.contains("not-printed")) { replayBody(node.id); }
    });
  });
  window.addEventListener("afterprint", function () {
    closed.forEach(function (d) { d.open = false; });
    paged.forEach(function (entry) { entry[0].shown = entry[1]; paginate(entry[0]); });
    closed = []; paged = [];
  });

  var addressed = readAddress();
  apply();
  if (addressed) { showFiltered(); } else if (location.hash) { reveal(); }
})();
