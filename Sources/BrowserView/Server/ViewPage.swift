/// The page `GET /` serves: one file, with its style and script inline and nothing fetched from
/// elsewhere. It shows the stream, the shutter's badge, the rates, the coverage and the pictures,
/// and sends the commands from its buttons and from the keys space (take a picture) and q (stop).
/// With `live --calibrate` it shows the newest background calibration as it comes: the verdict,
/// the RMS error, fx fy cx cy with their 95% intervals, the advice and the uncertainty map.
/// For a rig it shows the rig's state above the cameras (side by side in the stream), each
/// camera's state, and the sets saved; its capture takes a set.
/// A token in the page's address is passed on to every request it makes.
enum ViewPage {
    static let html = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>marker-shutter live</title>
    <style>
      body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: #15181c; color: #e8e8e8; }
      main { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px; }
      #view { max-width: 100%; background: #000; border: 1px solid #333; min-width: 320px; min-height: 240px; }
      aside { min-width: 260px; flex: 1; }
      #badge { display: inline-block; padding: 6px 14px; border-radius: 6px; font-weight: bold; font-size: 20px;
               background: #555; color: #fff; }
      #badge.enabled { background: #1e8e3e; }
      #badge.held { background: #e8a317; color: #111; }
      #badge.disabled { background: #b3261e; }
      #countdown { height: 6px; background: #e8a317; width: 0; margin: 6px 0; transition: width 0.1s linear; }
      dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; }
      dt { color: #9aa0a6; }
      button { font-size: 16px; padding: 8px 14px; margin: 8px 8px 8px 0; border-radius: 6px; border: 0; cursor: pointer; }
      #capture { background: #1a73e8; color: #fff; }
      #stop { background: #5f6368; color: #fff; }
      button:disabled { opacity: 0.4; cursor: default; }
      #message { min-height: 1.4em; color: #fdd663; }
      #thumbs { display: flex; flex-wrap: wrap; gap: 6px; }
      #changes { margin: 4px 0 8px; padding-left: 22px; font-size: 13px; color: #9aa0a6; }
      #thumbs figure { margin: 0; font-size: 12px; color: #9aa0a6; }
      #thumbs img { display: block; width: 120px; border: 1px solid #333; }
      .bar { background: #333; height: 8px; width: 120px; display: inline-block; vertical-align: middle; }
      .bar span { display: block; height: 100%; background: #8ab4f8; }
      kbd { border: 1px solid #666; border-radius: 3px; padding: 0 4px; }
      #rig { padding: 16px 16px 0; }
      #rigbadge { display: inline-block; padding: 6px 14px; border-radius: 6px; font-weight: bold; font-size: 20px;
                  background: #555; color: #fff; }
      #rigbadge.enabled { background: #1e8e3e; }
      #rigbadge.disabled { background: #b3261e; }
      #cameras { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0 0; padding: 0; list-style: none; }
      #cameras li { padding: 2px 10px; border-radius: 4px; background: #b3261e; color: #fff; }
      #cameras li.enabled { background: #1e8e3e; }
      #cameras li.held { background: #e8a317; color: #111; }
      #sets { margin: 4px 0 8px; padding-left: 22px; font-size: 13px; color: #9aa0a6; }
      #calibration { margin: 8px 0; padding: 8px; border: 1px solid #333; border-radius: 6px; }
      #calverdict { font-weight: bold; color: #fdd663; }
      #calverdict.good { color: #81c995; }
      #calverdict.not-good { color: #f28b82; }
      #caladvice { margin: 4px 0; padding-left: 22px; font-size: 13px; }
      #calerror { color: #f28b82; }
      #calmap { display: block; max-width: 100%; width: 400px; margin-top: 6px; border: 1px solid #333; }
      #calsummary { font-size: 12px; white-space: pre-wrap; margin: 4px 0; }
    </style>
    </head>
    <body>
    <section id="rig" hidden>
      <div id="rigbadge">waiting</div>
      <ul id="cameras"></ul>
    </section>
    <main>
      <img id="view" alt="live view of the camera">
      <aside>
        <div id="badge">waiting</div>
        <div id="countdown"></div>
        <dl>
          <dt>frame rate</dt><dd id="fps">--</dd>
          <dt>detection</dt><dd id="detect">--</dd>
          <dt>found</dt><dd id="found">--</dd>
          <dt>pictures</dt><dd id="pictures">0</dd>
        </dl>
        <div id="coverage" hidden>
          <div>coverage</div>
          <dl id="bars"></dl>
        </div>
        <div id="calibration" hidden>
          <div>calibration</div>
          <div id="calverdict"></div>
          <dl id="calfigures"></dl>
          <ul id="caladvice"></ul>
          <div id="calerror"></div>
          <pre id="calsummary" hidden></pre>
          <img id="calmap" alt="projection uncertainty of the newest calibration" hidden>
        </div>
        <button id="capture">Take picture</button><button id="stop">Stop</button>
        <div><kbd>space</kbd> take picture &nbsp; <kbd>q</kbd> stop</div>
        <div id="message"></div>
        <div>shutter changes</div>
        <ol id="changes" reversed></ol>
        <div id="setlist" hidden>
          <div>sets saved</div>
          <ol id="sets" reversed></ol>
        </div>
        <div id="thumbs"></div>
      </aside>
    </main>
    <script>
    "use strict";
    const token = new URLSearchParams(location.search).get("token");
    const withToken = (path) => token ? path + "?token=" + encodeURIComponent(token) : path;
    const $ = (id) => document.getElementById(id);
    $("view").src = withToken("stream.mjpg");

    function showState(s) {
      const badge = $("badge");
      if (s.shutter) { badge.textContent = s.badge; badge.className = s.shutter; }
      const left = s.hold_left, hold = s.hold;
      $("countdown").style.width = (left != null && hold) ? (100 * left / hold) + "%" : "0";
      $("fps").textContent = s.fps != null ? s.fps.toFixed(1) + " fps" : "--";
      $("detect").textContent = s.detect_ms != null ? s.detect_ms.toFixed(1) + " ms" : "--";
      $("found").textContent = s.markers != null ? s.markers + " markers, " + s.corners + " corners" : "--";
      $("pictures").textContent = s.pictures.taken;
      if (s.coverage) {
        $("coverage").hidden = false;
        $("bars").innerHTML = "";
        for (const key of ["x", "y", "size", "skew"]) {
          const dt = document.createElement("dt"); dt.textContent = key;
          const dd = document.createElement("dd");
          dd.innerHTML = '<span class="bar"><span style="width:' + Math.round(100 * s.coverage[key]) + '%"></span></span>';
          $("bars").append(dt, dd);
        }
      }
      if (s.rig) { showRig(s.rig); }
      if (s.calibration) { showCalibration(s.calibration); }
      if (!s.running) { ended(s.stop_reason); }
    }

    // A rig: its state above the cameras, each camera's state, and the sets saved.
    window.isRig = false;
    function showRig(r) {
      if (!window.isRig) {
        window.isRig = true;
        $("rig").hidden = false; $("setlist").hidden = false;
        $("badge").style.display = "none"; $("countdown").style.display = "none";
        $("capture").textContent = "Take set";
        $("view").alt = "live view of the rig's cameras side by side";
      }
      $("rigbadge").textContent = r.badge;
      $("rigbadge").className = r.enabled ? "enabled" : "disabled";
      $("cameras").innerHTML = "";
      for (const c of r.cameras) {
        const item = document.createElement("li");
        item.textContent = c.name + ": " + c.badge;
        item.className = c.state;
        item.dataset.camera = c.name;
        $("cameras").append(item);
      }
      $("found").textContent = r.cameras.map((c) => c.name + " " + (c.markers != null ? c.markers + "/" + c.corners : "--")).join(", ");
      $("pictures").textContent = r.sets.taken + (r.sets.taken === 1 ? " set" : " sets");
      $("sets").innerHTML = "";
      for (const set of r.sets.recent.slice().reverse()) {
        const item = document.createElement("li");
        item.textContent = set.sidecar + " (" + set.images.join(", ") + "; " + set.apart_ms.toFixed(1) + " ms apart, " + set.trigger + ")";
        $("sets").append(item);
      }
    }

    // The newest background calibration: the verdict in the terminal's words, the figures with
    // their 95% intervals, the advice, and its uncertainty map (fetched again on each solve).
    function showCalibration(c) {
      $("calibration").hidden = false;
      if (c.verdict != null) {
        $("calverdict").textContent = "verdict: " + c.verdict;
        $("calverdict").className = c.kind;
        const rows = [["views", String(c.views)], ["RMS", c.rms != null ? c.rms.toFixed(3) + " px" : "--"]];
        for (const p of c.parameters) {
          rows.push([p.name, (p.value != null ? p.value.toFixed(1) : "--") + (p.interval95 != null ? " ± " + p.interval95.toFixed(1) : "") + " px"]);
        }
        $("calfigures").innerHTML = "";
        for (const [name, value] of rows) {
          const dt = document.createElement("dt"); dt.textContent = name;
          const dd = document.createElement("dd"); dd.textContent = value; dd.dataset.parameter = name;
          $("calfigures").append(dt, dd);
        }
        $("caladvice").innerHTML = "";
        for (const line of c.advice) {
          const item = document.createElement("li"); item.textContent = line; $("caladvice").append(item);
        }
      }
      $("calsummary").hidden = !c.summary;
      $("calsummary").textContent = c.summary ? c.summary.join("\n") : "";
      $("calerror").textContent = c.error ? "newest solve failed: " + c.error : "";
      if (c.map && $("calmap").dataset.map !== c.map) {
        $("calmap").dataset.map = c.map;
        $("calmap").src = withToken(c.map.slice(1).split("?")[0]) + (token ? "&" : "?") + c.map.split("?")[1];
        $("calmap").hidden = false;
      }
    }

    function addPicture(p) {
      const figure = document.createElement("figure");
      if (p.thumbnail) { const img = document.createElement("img"); img.src = p.thumbnail; figure.append(img); }
      const caption = document.createElement("figcaption");
      caption.textContent = "#" + p.number + " frame " + p.frame + " (" + p.trigger + ")";
      figure.append(caption);
      $("thumbs").prepend(figure);
      while ($("thumbs").children.length > 5) { $("thumbs").lastChild.remove(); }
    }

    // Every change of the shutter, oldest first, as the server sends them (none is skipped).
    window.shutterChanges = [];
    function addChange(c) {
      window.shutterChanges.push(c);
      const item = document.createElement("li");
      item.textContent = "frame " + c.frame + ": " + c.shutter;
      $("changes").prepend(item);
      while ($("changes").children.length > 6) { $("changes").lastChild.remove(); }
    }

    function ended(reason) {
      $("badge").textContent = "stopped"; $("badge").className = ""; $("countdown").style.width = "0";
      $("message").textContent = "session ended" + (reason ? ": " + reason : "");
      $("capture").disabled = true; $("stop").disabled = true;
      if (window.isRig) { $("rigbadge").textContent = "stopped"; $("rigbadge").className = ""; }
    }

    async function send(command) {
      try {
        const response = await fetch(withToken(command), { method: "POST" });
        const answer = await response.json();
        $("message").textContent = answer.accepted
          ? (command === "capture" ? (window.isRig ? "taking a set" : "taking a picture") : "stopping")
          : answer.reason;
      } catch (error) { $("message").textContent = "no answer: " + error; }
    }

    fetch(withToken("state")).then((r) => r.json()).then((s) => {
      for (const p of (s.pictures.recent || [])) { addPicture(p); }
      showState(s);
    });
    const events = new EventSource(withToken("events"));
    events.addEventListener("state", (e) => showState(JSON.parse(e.data)));
    events.addEventListener("picture", (e) => addPicture(JSON.parse(e.data)));
    events.addEventListener("shutter", (e) => addChange(JSON.parse(e.data)));
    events.addEventListener("end", (e) => { ended(JSON.parse(e.data).reason); events.close(); });
    $("capture").onclick = () => send("capture");
    $("stop").onclick = () => send("stop");
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" || e.repeat) { return; }
      if (e.key === " ") { e.preventDefault(); send("capture"); }
      else if (e.key === "q") { send("stop"); }
    });
    </script>
    </body>
    </html>
    """#
}
