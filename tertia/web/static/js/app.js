// The page's entry point: a small hash router over three screens.
//   #/                     new battle and the battles this browser holds
//   #/play/<id>?token=...  the table (a token in the address is kept, then hidden)
//   #/replay/<id>?token=...&step=...  replay (a token in the address kept, then hidden)

import { HomeScreen } from "./home.js";
import { PlayScreen } from "./play.js";
import { ReplayScreen } from "./replay.js";
import { api } from "./api.js";
import { remember } from "./tokens.js";
import { toast } from "./ui.js";

const screen = document.getElementById("screen");
let current = null;

async function adoptToken(id, token, address) {
  // A link's token: learn which side it plays, keep it, and take it out of the address
  // (the screen's own address without it).
  try {
    const s = await api.summary(id, token);
    const roles = s.game.you.length ? s.game.you : ["spectator"];
    remember(id, Object.fromEntries(roles.map((r) => [r, token])), { title: s.game.title, mode: s.game.mode });
  } catch (err) {
    toast(`This link does not open a battle: ${err.message}`, "error", 8000);
  }
  history.replaceState(null, "", address);
}

async function route() {
  if (current) current.destroy();
  current = null;
  document.querySelectorAll(".modal").forEach((m) => m.remove());
  const hash = location.hash || "#/";
  const [path, query] = hash.slice(1).split("?");
  const parts = path.split("/").filter(Boolean);
  const params = new URLSearchParams(query || "");
  const token = params.get("token");
  if (token && (parts[0] === "play" || parts[0] === "replay") && parts[1]) {
    params.delete("token");
    const rest = params.toString();
    await adoptToken(parts[1], token, `#/${parts[0]}/${parts[1]}${rest ? `?${rest}` : ""}`);
  }
  if (parts[0] === "play" && parts[1]) {
    current = new PlayScreen(screen, parts[1]);
  } else if (parts[0] === "replay" && parts[1]) {
    current = new ReplayScreen(screen, parts[1], wholeStep(params.get("step")));
  } else {
    current = new HomeScreen(screen);
  }
  document.body.dataset.screen = parts[0] || "home";
  window.tertiaScreen = current; // for tests and the console
  await current.start();
}

window.addEventListener("hashchange", route);
route();

// A step given in the address, when it is a whole number of actions (0 or more); any
// other (a word, a fraction, a sign) shows the last step, as a step past the end does.
function wholeStep(text) {
  return text !== null && /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
}
