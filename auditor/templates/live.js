// The live floor (auditor/live/page.py): the page drawn from /snapshot.json, then kept up to
// date from /events (Server-Sent Events, one numbered change each). Everything shown is
// record text: it is set with textContent and DOM calls only, never as HTML.
"use strict";

(function () {
  const SHOWN_FINDINGS = 1000;
  const SHOWN_NOTICES = 200;
  // Unicode bidi controls shown as markers, as the server's first paint shows them
  // (auditor/shown.py), so a record's text cannot display reordered.
  const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

  let instance = document.body.dataset.instance;
  let sequence = -1;
  let stream = null;
  let findingsTotal = 0;
  const rows = new Map(); // table key -> its row

  function shown(value) {
    if (value === null || value === undefined) return "";
    return String(value).replace(BIDI, (c) =>
      "\u27e6U+" + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0") + "\u27e7");
  }

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = shown(text);
    if (className) node.className = className;
    return node;
  }

  function setStatus(text, state) {
    const status = document.getElementById("status");
    status.textContent = text;
    status.dataset.state = state;
  }

  // Tables

  function tableRow(table) {
    const row = document.createElement("tr");
    row.append(element("th", table.key));
    row.firstChild.scope = "row";
    for (const name of ["game", "dealer", "last_round", "open_round"]) {
      row.append(element("td", table[name]));
    }
    row.append(element("td", table.rounds, "number"));
    row.append(element("td", table.findings, "number"));
    row.append(element("td", table.updated));
    return row;
  }

  function putTable(table, fresh) {
    const body = document.getElementById("tables");
    const row = tableRow(table);
    row.dataset.key = table.key;
    const old = rows.get(table.key);
    if (old) {
      old.replaceWith(row);
    } else {
      // in the snapshot's order: by key
      const next = Array.from(rows.keys()).filter((k) => k > table.key).sort()[0];
      body.insertBefore(row, next === undefined ? null : rows.get(next));
    }
    rows.set(table.key, row);
    if (fresh) flash(row);
    document.getElementById("no-tables").hidden = rows.size > 0;
  }

  // Findings

  function findingEntry(entry) {
    const f = entry.finding;
    const marked = new Set([f.line, ...(f.evidence || [])].filter((n) => n !== null)
      .map(String));
    const item = document.createElement("li");
    const details = element("details", null, "finding severity-" + shown(f.severity));
    const summary = document.createElement("summary");
    // a finding of no one round (the header, between rounds) is placed by its line
    let where = shown(f.table) + (f.round !== null && f.round !== undefined
      ? " · round " + shown(f.round) : f.line ? " · line " + f.line : " · the record");
    if (f.seat) where += " · seat " + shown(f.seat);
    if (f.time) where += " · " + shown(f.time);
    summary.append(element("span", f.severity, "severity"), " ",
      element("span", f.citation, "citation"), " ", element("span", where, "where"), " ",
      element("span", f.message, "message"));
    details.append(summary);

    const meta = element("dl", null, "meta");
    const fields = [["rule", f.rule],
      ["file", f.line ? shown(f.file) + ", line " + f.line : f.file],
      ["player", f.player], ["dealer", f.dealer],
      ["expected", f.expected === null || f.expected === undefined ? null
        : shown(f.expected) + " " + shown(f.currency)],
      ["actual", f.actual === null || f.actual === undefined ? null
        : shown(f.actual) + " " + shown(f.currency)],
      ["ID", f.id]];
    for (const [name, value] of fields) {
      if (value === null || value === undefined || value === "") continue;
      meta.append(element("dt", name), element("dd", value));
    }
    details.append(meta);

    const lines = element("ol", null, "lines");
    for (const [number, text] of Object.entries(entry.lines || {})) {
      const evidence = marked.has(number);
      const line = element("li", null, evidence ? "evidence" : "");
      line.append(element("span", number, "number"), element("span", evidence ? "▶" : "", "mark"),
        element("code", text));
      const length = (entry.shortened || {})[number];
      if (length !== undefined) {
        line.append(element("span", "… shortened for the page: the line has " +
          Number(length).toLocaleString("en-US") + " characters", "shortened"));
      }
      lines.append(line);
    }
    details.append(lines);
    item.append(details);
    return item;
  }

  function addFinding(entry, fresh) {
    const list = document.getElementById("findings");
    const item = findingEntry(entry);
    list.insertBefore(item, list.firstChild);
    while (list.children.length > SHOWN_FINDINGS) list.lastChild.remove();
    if (fresh) {
      findingsTotal += 1;
      flash(item);
    }
    countFindings();
  }

  function countFindings() {
    const shownCount = document.getElementById("findings").children.length;
    let text = findingsTotal + " this gaming day";
    if (findingsTotal > shownCount) text += ", the newest " + shownCount + " shown";
    document.getElementById("findings-count").textContent =
      text + "; newest first. Open one to see its round's lines, the evidence marked ▶.";
  }

  // Flags and notices

  function setFlags(flags) {
    const list = document.getElementById("flags");
    list.replaceChildren();
    for (const flag of flags) {
      const item = document.createElement("li");
      for (const [name, value] of Object.entries(flag)) {
        if (typeof value !== "string" && typeof value !== "number") continue;
        const field = element("span", null, "field");
        field.append(element("span", name, "name"), " " + shown(value));
        item.append(field);
      }
      list.append(item);
    }
    document.getElementById("no-flags").hidden = flags.length > 0;
  }

  function addNotice(notice, fresh) {
    const list = document.getElementById("notices");
    const item = document.createElement("li");
    if (notice.file) item.append(element("code", notice.file), ": ");
    item.append(shown(notice.text));
    list.insertBefore(item, list.firstChild);
    while (list.children.length > SHOWN_NOTICES) list.lastChild.remove();
    if (fresh) flash(item);
  }

  function flash(node) {
    node.classList.add("fresh");
    setTimeout(() => node.classList.remove("fresh"), 3000);
  }

  // The floor: a snapshot, then its changes

  function draw(snapshot) {
    instance = snapshot.instance;
    sequence = snapshot.sequence;
    findingsTotal = snapshot.findings_total;
    document.getElementById("gaming-day").textContent =
      shown(snapshot.gaming_day || "not yet known");
    document.getElementById("tables").replaceChildren();
    rows.clear();
    for (const table of snapshot.tables) putTable(table, false);
    document.getElementById("no-tables").hidden = rows.size > 0;
    document.getElementById("findings").replaceChildren();
    for (const entry of snapshot.findings.slice(-SHOWN_FINDINGS)) addFinding(entry, false);
    countFindings();
    setFlags(snapshot.flags);
    document.getElementById("notices").replaceChildren();
    for (const notice of snapshot.notices) addNotice(notice, false);
    document.body.dataset.sequence = String(sequence);
  }

  function apply(change) {
    if (change.sequence <= sequence) return; // already shown
    sequence = change.sequence;
    document.body.dataset.sequence = String(sequence);
    const data = change.data;
    if (change.kind === "table") putTable(data, true);
    else if (change.kind === "finding") addFinding(data, true);
    else if (change.kind === "flags") setFlags(data.flags);
    else if (change.kind === "notice") addNotice(data, true);
    else if (change.kind === "day") reload(); // the day's findings start again
  }

  function follow() {
    const query = new URLSearchParams({after: String(sequence), instance: instance});
    stream = new EventSource("/events?" + query.toString());
    stream.onopen = () => setStatus("live", "live");
    stream.onerror = () => setStatus("connection lost, trying again…", "lost");
    stream.onmessage = (event) => apply(JSON.parse(event.data));
    stream.addEventListener("reload", reload);
  }

  let reloading = false;
  async function reload() {
    if (reloading) return;
    reloading = true;
    if (stream) stream.close();
    stream = null;
    setStatus("loading…", "loading");
    for (;;) {
      try {
        const response = await fetch("/snapshot.json", {cache: "no-store"});
        if (!response.ok) throw new Error("snapshot: HTTP " + response.status);
        draw(await response.json());
        break;
      } catch (problem) {
        setStatus("cannot reach the server, trying again…", "lost");
        await new Promise((resume) => setTimeout(resume, 2000));
      }
    }
    reloading = false;
    follow();
  }

  reload();
})();
