// What the rule set tells the page (GET /api/rules/{id} → "vocabulary"): its action kinds
// with their labels, fields and whether their odds come first, the decisions it awaits
// with their prompts and panels, and the panels to show. The page builds its buttons,
// prompts and panels from this, never from action type names of its own.

const PLACEHOLDER = /\{([a-z_][a-z0-9_.]*)\}/g;

// ``template`` with each {name} replaced by lookup(name); null when a name has no value.
export function fill(template, lookup) {
  let missing = false;
  const text = template.replace(PLACEHOLDER, (_, path) => {
    const value = lookup(path);
    if (value === null || value === undefined) { missing = true; return ""; }
    return value;
  });
  return missing ? null : text;
}

function at(values, path) {
  let found = values;
  for (const part of path.split(".")) {
    if (found === null || typeof found !== "object" || !(part in found)) return null;
    found = found[part];
  }
  return found;
}

// A pending context's value as words: a piece by its name, a list joined.
function plain(value, names) {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => plain(v, names) ?? "").join(", ");
  if (typeof value === "string") return names(value) || value;
  return String(value);
}

export class Vocabulary {
  constructor(data) {
    this.actions = (data && data.actions) || [];
    this.decisions = (data && data.decisions) || [];
    this.panels = (data && data.panels) || [];
  }

  kind(type) { return this.actions.find((k) => k.type === type) || null; }

  decision(kind) { return this.decisions.find((d) => d.kind === kind) || null; }

  panel(name) { return this.panels.find((p) => p.name === name) || null; }

  // The panel that makes actions of ``type`` (so they are not the prompt's buttons).
  panelFor(type) { return this.panels.find((p) => p.action === type) || null; }

  // The decision pending now, as declared (null when none is, or it is undeclared).
  pending(status) {
    return status && status.pending ? this.decision(status.pending.kind) : null;
  }

  // One action of ``kind`` (its field values) in words: the piece acting, the kind's
  // phrase, and each optional field given, by its label ("Hollis's Foot: Attack
  // Balfour's Horse; Supporting units: ...").
  describe(kind, values, names) {
    if (!kind) return Object.values(values).map((v) => plain(v, names)).filter(Boolean).join(", ");
    const shown = (f) => {
      const v = values[f.name];
      if (v === null || v === undefined || (Array.isArray(v) && !v.length)) return f.optional ? f.none_label || null : null;
      return plain(v, names);
    };
    const phrase = fill(kind.phrase, (path) => shown(kind.fields.find((f) => f.name === path) || { name: path }));
    const head = kind.subject && values[kind.subject] ? `${names(values[kind.subject]) || values[kind.subject]}: ` : "";
    const more = kind.fields.filter((f) => f.optional && values[f.name] !== undefined && values[f.name] !== null
      && !(Array.isArray(values[f.name]) && !values[f.name].length) && !kind.phrase.includes(`{${f.name}}`))
      .map((f) => `${f.label.toLowerCase()}: ${plain(values[f.name], names)}`);
    return `${head}${phrase ?? kind.label}${more.length ? ` (${more.join("; ")})` : ""}`;
  }

  // The prompt for a pending decision, filled in from its context (pieces by name).
  ask(decision, pending, names) {
    const text = fill(decision.prompt, (path) => plain(at(pending, path), names));
    return text === null ? decision.label : text;
  }
}
