/* The report's enhancements: filters, search, pagination, replays beside their findings,
   and printing with everything open. The page reads in full without any of this. Record
   text is only ever moved as DOM nodes or set with textContent, never parsed as HTML. */
(function () {
  "use strict";
  var dataNode = document.getElementById("report-data");
  if (!dataNode) { return; }
  var data = JSON.parse(dataNode.textContent);
  var pageSize = data.pageSize || 25;
  var rows = data.facets || [];
  var form = document.getElementById("filters");
  var status = document.getElementById("filter-status");
  var printNote = document.getElementById("print-filter");

  var items = [];      // one per finding: its element, its group and its facets
  var groups = [];     // one per citation: its element, its findings, the page shown
  var i;
  for (i = 0; i < rows.length; i++) {
    var element = document.getElementById("f-" + (i + 1));
    if (!element) { continue; }
    items.push({ element: element, index: i, group: rows[i][0], severity: rows[i][1],
                 table: rows[i][2], dealer: rows[i][3], game: rows[i][4], date: rows[i][5],
                 waiver: rows[i][6], baseline: rows[i][7],
                 text: null, match: true });
  }
  var groupNodes = document.querySelectorAll("details.group");
  for (i = 0; i < groupNodes.length; i++) {
    var node = groupNodes[i];
    var list = node.querySelector("ol.findings");
    var pager = document.createElement("div");
    pager.className = "pager";
    var more = document.createElement("button");
    more.type = "button";
    var all = document.createElement("button");
    all.type = "button";
    all.textContent = "Show all";
    var info = document.createElement("span");
    pager.appendChild(info); pager.appendChild(more); pager.appendChild(all);
    list.parentNode.insertBefore(pager, list.nextSibling);
    groups[Number(node.getAttribute("data-group"))] = {
      element: node, items: [], shown: pageSize, pager: pager, more: more, all: all, info: info,
      count: node.querySelector(".g-count")
    };
  }
  items.forEach(function (item) { if (groups[item.group]) { groups[item.group].items.push(item); } });
  groups.forEach(function (group) {
    group.more.addEventListener("click", function () { group.shown += pageSize; paginate(group); });
    group.all.addEventListener("click", function () { group.shown = Infinity; paginate(group); });
  });

  function plural(n, noun) { return n.toLocaleString("en") + " " + noun + (n === 1 ? "" : "s"); }

  function criteria() {
    if (!form) { return {}; }
    var get = function (name) { return form.elements[name] ? form.elements[name].value : ""; };
    return { citation: get("citation"), severity: get("severity"), table: get("table"),
             dealer: get("dealer"), game: get("game"), from: get("from"), to: get("to"),
             status: get("status"),
             q: get("q").trim().toLowerCase() };
  }

  /* Clears the filters without the form's reset event, whose deferred apply() would undo
     a page shown on purpose (a finding linked to, a bar clicked). */
  function clearFilters() {
    if (!form) { return; }
    Array.prototype.forEach.call(form.elements, function (field) {
      if (field.name) { field.value = ""; }
    });
  }

  function active(c) {
    return Object.keys(c).some(function (key) { return c[key] !== ""; });
  }

  function matches(item, c) {
    if (c.citation !== "" && String(item.group) !== c.citation) { return false; }
    if (c.severity && item.severity !== c.severity) { return false; }
    if (c.table && item.table !== c.table) { return false; }
    if (c.dealer && item.dealer !== c.dealer) { return false; }
    if (c.game && item.game !== c.game) { return false; }
    if (c.status === "waived" || c.status === "open") { if (item.waiver !== c.status) { return false; } }
    else if (c.status && item.baseline !== c.status) { return false; }
    if (c.from && (!item.date || item.date < c.from)) { return false; }
    if (c.to && (!item.date || item.date > c.to)) { return false; }
    if (c.q) {
      if (item.text === null) { item.text = item.element.textContent.replace(/\s+/g, " ").toLowerCase(); }
      var words = c.q.split(/\s+/);
      for (var w = 0; w < words.length; w++) {
        if (item.text.indexOf(words[w]) < 0) { return false; }
      }
    }
    return true;
  }

  function paginate(group) {
    var visible = 0, matched = 0;
    group.items.forEach(function (item) {
      if (item.match) {
        matched += 1;
        item.element.hidden = matched > group.shown;
        if (!item.element.hidden) { visible += 1; }
      } else {
        item.element.hidden = true;
      }
    });
    group.pager.hidden = matched <= visible;
    group.info.textContent = "Showing " + visible + " of " + matched;
    group.more.textContent = "Show " + Math.min(pageSize, matched - visible) + " more";
    return matched;
  }

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
      var all = group.items.length;
      group.count.textContent = filtered ? group.matched + " of " + plural(all, "finding") : plural(all, "finding");
    });
    /* A narrow filter opens what it found: one citation, or few findings. */
    if (filtered && (total <= 60 || groupsMatched === 1)) {
      groups.forEach(function (group) { if (group.matched) { group.element.open = true; } });
    }
    if (status) {
      status.textContent = filtered
        ? "Showing " + plural(total, "finding") + " of " + items.length.toLocaleString("en") + " (filtered)"
        : "Showing all " + plural(items.length, "finding");
    }
    if (printNote) {
      printNote.hidden = !filtered;
      printNote.textContent = filtered ? "Printed with filters (" + describe(c) + "): " + total + " of " + items.length + " findings." : "";
    }
  }

  function describe(c) {
    var parts = [];
    if (c.citation !== "") {
      var option = form.elements.citation.selectedOptions[0];
      parts.push("citation " + (option ? option.getAttribute("data-citation") : c.citation));
    }
    ["severity", "table", "dealer", "game", "status", "from", "to"].forEach(function (key) { if (c[key]) { parts.push(key + " " + c[key]); } });
    if (c.q) { parts.push("search \u201c" + c.q + "\u201d"); }
    return parts.join(", ");
  }

  if (form) {
    form.hidden = false;
    var timer = null;
    form.addEventListener("input", function (event) {
      if (event.target && event.target.name === "q") {
        clearTimeout(timer);
        timer = setTimeout(apply, 150);
      } else {
        apply();
      }
    });
    form.addEventListener("change", apply);
    form.addEventListener("reset", function () { setTimeout(apply, 0); });
    form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    form.addEventListener("click", function (event) {
      var action = event.target && event.target.getAttribute("data-action");
      if (!action) { return; }
      groups.forEach(function (group) { if (!group.element.hidden) { group.element.open = action === "expand"; } });
    });
  }

  /* A bar of a chart, or a citation of the coverage table, filters the findings. */
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("[data-filter]") : null;
    if (!link || !form) { return; }
    var key = link.getAttribute("data-filter");
    var value = link.getAttribute("data-value");
    var field = form.elements[key];
    if (!field) { return; }
    event.preventDefault();
    clearFilters();
    if (key === "citation") {
      var options = field.options;
      for (var o = 0; o < options.length; o++) {
        if (options[o].getAttribute("data-citation") === value) { field.value = options[o].value; }
      }
    } else {
      field.value = value;
    }
    apply();
    document.getElementById("findings").scrollIntoView();
  });

  /* A finding's replay: the round's replay (made once per round) is copied beside it, with
     this finding's line outlined. */
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.classList || !details.classList.contains("show-replay") || !details.open) { return; }
    var slot = details.querySelector(".slot");
    if (!slot || slot.getAttribute("data-filled")) { return; }
    var source = document.getElementById(details.getAttribute("data-replay") + "-steps");
    if (!source) { return; }
    var copy = source.querySelector("table.steps, pre.lean").cloneNode(true);
    var line = details.getAttribute("data-line");
    var marked = copy.querySelectorAll("[data-l]");
    for (var r = 0; r < marked.length; r++) {
      if (marked[r].getAttribute("data-l") === line) { marked[r].classList.add("this"); }
    }
    slot.textContent = "";
    slot.appendChild(copy);
    slot.setAttribute("data-filled", "1");
  }, true);

  /* Going to a finding or a replay opens what holds it and shows its page. */
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) { return; }
    var target = document.getElementById(id);
    if (!target) { return; }
    var item = items.filter(function (it) { return it.element === target; })[0];
    if (item && item.element.hidden) {
      clearFilters();
      apply();
      var group = groups[item.group];
      group.shown = group.items.indexOf(item) + 1;
      paginate(group);
    }
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
    }
    if (target.tagName === "DETAILS") { target.open = true; }
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", reveal);

  /* Printing: every finding that the filters let through, everything open. */
  var closed = [];
  var hiddenByPage = [];
  window.addEventListener("beforeprint", function () {
    closed = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"),
      function (d) { return !d.classList.contains("show-replay"); });
    closed.forEach(function (d) { d.open = true; });
    hiddenByPage = items.filter(function (item) { return item.match && item.element.hidden; });
    hiddenByPage.forEach(function (item) { item.element.hidden = false; });
  });
  window.addEventListener("afterprint", function () {
    closed.forEach(function (d) { d.open = false; });
    hiddenByPage.forEach(function (item) { item.element.hidden = true; });
    closed = []; hiddenByPage = [];
  });

  apply();
  if (location.hash) { reveal(); }
})();
