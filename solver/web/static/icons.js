// Pictures for dice faces and fortune cards, drawn as inline SVG (no images, no fonts).
// Each drawing lives in a 64x64 box; face(name) and card(name) return SVG markup.

const svg = (body, label) =>
  `<svg viewBox="0 0 64 64" role="img" aria-label="${label}" focusable="false">${body}</svg>`;

const FACES = {
  // Mille Sabords
  coin: `<circle cx="32" cy="32" r="22" fill="#f2c230" stroke="#9a6b00" stroke-width="3"/>
    <circle cx="32" cy="32" r="14" fill="none" stroke="#9a6b00" stroke-width="2"/>
    <path d="M32 22l3 7h7l-6 4 2 8-6-5-6 5 2-8-6-4h7z" fill="#9a6b00"/>`,
  diamond: `<path d="M16 24l8-10h16l8 10-16 28z" fill="#7fd3f7" stroke="#1c6d99" stroke-width="3"
    stroke-linejoin="round"/><path d="M16 24h32M24 14l8 38 8-38M26 24l6-10 6 10" fill="none"
    stroke="#1c6d99" stroke-width="2"/>`,
  monkey: `<circle cx="14" cy="30" r="7" fill="#8a5a2b"/><circle cx="50" cy="30" r="7" fill="#8a5a2b"/>
    <circle cx="32" cy="32" r="18" fill="#8a5a2b"/><ellipse cx="32" cy="37" rx="12" ry="10"
    fill="#e8c39e"/><circle cx="26" cy="28" r="3" fill="#222"/><circle cx="38" cy="28" r="3"
    fill="#222"/><path d="M27 41q5 4 10 0" stroke="#222" stroke-width="2" fill="none"/>`,
  parrot: `<path d="M20 54c0-18 4-32 16-38 10-4 18 4 16 12l-8 2c-4 6-4 14 0 24z" fill="#2fa84f"
    stroke="#166b2d" stroke-width="2"/><path d="M44 20c8 0 12 6 10 12l-8-2z" fill="#f2a400"
    stroke="#8a5a00" stroke-width="2"/><circle cx="40" cy="22" r="3" fill="#222"/>
    <path d="M22 40q10-4 18 2" stroke="#e23b2e" stroke-width="4" fill="none"/>`,
  sabre: `<path d="M14 50C26 40 40 24 50 10c2 8-6 22-30 44z" fill="#cfd8dc" stroke="#455a64"
    stroke-width="2" stroke-linejoin="round"/><path d="M10 44l12 12" stroke="#8a5a2b"
    stroke-width="5" stroke-linecap="round"/><path d="M8 56l6-6" stroke="#8a5a2b"
    stroke-width="6" stroke-linecap="round"/>`,
  skull: `<path d="M14 30c0-12 8-20 18-20s18 8 18 20c0 6-3 10-6 12v8H20v-8c-3-2-6-6-6-12z"
    fill="#fafafa" stroke="#222" stroke-width="3" stroke-linejoin="round"/>
    <circle cx="25" cy="31" r="5" fill="#222"/><circle cx="39" cy="31" r="5" fill="#222"/>
    <path d="M32 37l-3 5h6z" fill="#222"/><path d="M26 50v-5M32 50v-5M38 50v-5" stroke="#222"
    stroke-width="2"/>`,
  // Gold Armada
  barrel: `<path d="M20 10h24c5 8 5 36 0 44H20c-5-8-5-36 0-44z" fill="#b7793a" stroke="#5d3a14"
    stroke-width="3"/><path d="M17 22h30M17 42h30" stroke="#5d3a14" stroke-width="4"/>
    <path d="M32 10v44" stroke="#5d3a14" stroke-width="1.5"/>`,
  bottle: `<path d="M27 8h10v12c6 4 9 9 9 16v18c0 2-2 4-4 4H22c-2 0-4-2-4-4V36c0-7 3-12 9-16z"
    fill="#6bbf8e" stroke="#1f5e3a" stroke-width="3" stroke-linejoin="round"/>
    <rect x="25" y="4" width="14" height="6" rx="2" fill="#8a5a2b"/>
    <rect x="22" y="36" width="20" height="12" rx="2" fill="#f4ecd8" stroke="#1f5e3a"/>`,
  anchor: `<circle cx="32" cy="12" r="5" fill="none" stroke="#263238" stroke-width="4"/>
    <path d="M32 17v38M22 26h20" stroke="#263238" stroke-width="5" stroke-linecap="round"/>
    <path d="M12 38c2 10 10 16 20 17 10-1 18-7 20-17" fill="none" stroke="#263238"
    stroke-width="5" stroke-linecap="round"/><path d="M8 40l4-6 5 6M56 40l-4-6-5 6" fill="none"
    stroke="#263238" stroke-width="3"/>`,
  cannon: `<path d="M8 22l40 6v14L8 36z" fill="#37474f" stroke="#111" stroke-width="2"
    stroke-linejoin="round"/><rect x="46" y="26" width="8" height="18" rx="3" fill="#263238"/>
    <circle cx="26" cy="46" r="10" fill="#8a5a2b" stroke="#4e2e0e" stroke-width="3"/>
    <circle cx="26" cy="46" r="3" fill="#4e2e0e"/>`,
  map: `<path d="M8 14l16-4 16 6 16-4v38l-16 4-16-6-16 4z" fill="#f4e3b5" stroke="#8a5a2b"
    stroke-width="3" stroke-linejoin="round"/><path d="M24 10v38M40 16v38" stroke="#8a5a2b"
    stroke-width="1.5"/><path d="M14 40q8-10 14-4t14-10" stroke="#555" stroke-width="2"
    stroke-dasharray="3 3" fill="none"/><path d="M44 20l6 6M50 20l-6 6" stroke="#d32f2f"
    stroke-width="3"/>`,
};

const CHEST = `<rect x="10" y="28" width="44" height="26" rx="3" fill="#a0642b" stroke="#4e2e0e"
  stroke-width="3"/><path d="M10 28c0-10 8-16 22-16s22 6 22 16z" fill="#c17f3d" stroke="#4e2e0e"
  stroke-width="3"/><rect x="28" y="26" width="8" height="10" fill="#f2c230" stroke="#4e2e0e"
  stroke-width="2"/>`;

const small = (name, x, y, scale) =>
  `<g transform="translate(${x} ${y}) scale(${scale})">${FACES[name]}</g>`;
const badge = (text) =>
  `<circle cx="50" cy="50" r="12" fill="#1a237e"/><text x="50" y="55" font-size="15"
  font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="#fff">${text}</text>`;

const CARDS = {
  none: `<rect x="14" y="8" width="36" height="48" rx="5" fill="#eee" stroke="#999"
    stroke-width="3" stroke-dasharray="5 4"/>`,
  "treasure-island": CHEST,
  captain: `<path d="M6 40c8-20 44-20 52 0-10-6-42-6-52 0z" fill="#222" stroke="#000"
    stroke-width="2"/><path d="M12 38c4-16 36-16 40 0" fill="#333"/>
    <path d="M26 30l6-6 6 6-6 6z" fill="#f2c230"/>`,
  sorceress: `<path d="M32 4L16 46h32z" fill="#5e35b1" stroke="#311b92" stroke-width="2"
    stroke-linejoin="round"/><ellipse cx="32" cy="47" rx="26" ry="6" fill="#4527a0"/>
    <path d="M32 20l2 5h5l-4 3 2 5-5-3-5 3 2-5-4-3h5z" fill="#ffd54f"/>`,
  gold: FACES.coin,
  diamond: FACES.diamond,
  "monkey-business": small("monkey", 0, 8, 0.55) + small("parrot", 28, 20, 0.55),
  "sea-battle-2": FACES.sabre + badge("2"),
  "sea-battle-3": FACES.sabre + badge("3"),
  "sea-battle-4": FACES.sabre + badge("4"),
  "skulls-1": FACES.skull + badge("1"),
  "skulls-2": FACES.skull + badge("2"),
  "after-the-storm": `<path d="M16 36a10 10 0 0 1 4-19 14 14 0 0 1 26 2 9 9 0 0 1 2 17z"
    fill="#90a4ae" stroke="#455a64" stroke-width="3"/><path d="M34 36l-6 10h6l-4 12 12-16h-6l4-6z"
    fill="#ffca28" stroke="#8a6d00" stroke-width="1.5"/>`,
  truce: `<path d="M16 6v54" stroke="#6d4c41" stroke-width="4" stroke-linecap="round"/>
    <path d="M18 10c10-4 18 4 30 0v22c-12 4-20-4-30 0z" fill="#fff" stroke="#555"
    stroke-width="2"/>`,
};

/** SVG markup of a die face, labelled (for screen readers) label; an unknown face is drawn
 * as its name. */
export function face(name, label = name) {
  if (FACES[name]) return svg(FACES[name], label);
  return svg(`<text x="32" y="38" font-size="12" text-anchor="middle"
    font-family="sans-serif">${name}</text>`, label);
}

/** SVG markup of a fortune card's picture, labelled label. */
export function card(name, label = name) {
  if (CARDS[name]) return svg(CARDS[name], label);
  return svg(`<rect x="12" y="8" width="40" height="48" rx="5" fill="#fff" stroke="#555"
    stroke-width="2"/><text x="32" y="38" font-size="14" text-anchor="middle"
    font-family="sans-serif">${name.slice(0, 3)}</text>`, label);
}

/** The treasure chest (Treasure Island's protected dice). */
export const chest = () => svg(CHEST, "chest");
