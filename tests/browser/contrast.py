"""A contrast check run in the page: each piece of text on the felt against what lies under it."""

from __future__ import annotations

# Every element with its own words inside `.felt`: its colour (alpha and opacities applied) is
# laid on the backgrounds beneath it, down to the felt's green; the WCAG ratio must reach 4.5:1
# (3:1 for large text); the felt's green is the lighter end of its baize (base.css --baize-1, so the
# dark theme's is read too). An element over a picture (a gradient of its own, an image) is skipped:
# its background cannot be read off the styles.
LOW_CONTRAST = r"""(root) => {
    const baize = getComputedStyle(document.documentElement).getPropertyValue('--baize-1').trim();
    const hex = baize.match(/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i);
    const FELT = hex ? hex.slice(1).map((h) => parseInt(h, 16)) : [0x23, 0x70, 0x49];
    const parse = (c) => {
        const m = c.match(/rgba?\(([^)]+)\)/);
        if (!m) return null;
        const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
        return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top, bottom) => top.slice(0, 3).map((v, i) => v * top[3] + bottom[i] * (1 - top[3]));
    const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
    };
    const out = [];
    for (const felt of document.querySelectorAll(root)) {
        for (const el of felt.querySelectorAll('*')) {
            const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
            if (!own || el.closest('[aria-hidden=true], .sr-only, svg')) continue;
            const box = el.getBoundingClientRect();
            if (!box.width || !box.height) continue;
            const layers = [];
            let opacity = 1;
            let skip = false;
            let base = FELT;
            for (let n = el; n && n !== felt.parentElement; n = n.parentElement) {
                const s = getComputedStyle(n);
                opacity *= Number(s.opacity);
                if (n === felt) break;
                if (s.backgroundImage !== 'none') { skip = true; break; }
                const bg = parse(s.backgroundColor);
                if (bg && bg[3] >= 1) { base = bg.slice(0, 3); break; }
                if (bg && bg[3] > 0) layers.push(bg);
            }
            if (skip) continue;
            let under = base;
            for (const layer of layers.reverse()) under = over(layer, under);
            const fg = parse(getComputedStyle(el).color);
            const seen = over([fg[0], fg[1], fg[2], fg[3] * opacity], under);
            const s = getComputedStyle(el);
            const px = parseFloat(s.fontSize);
            const large = px >= 24 || (px >= 18.66 && Number(s.fontWeight) >= 700);
            const r = ratio(seen, under);
            const words = el.textContent.trim().slice(0, 40);
            if (r < (large ? 3 : 4.5)) out.push(`${el.className || el.tagName} "${words}": ${r.toFixed(2)}`);
        }
    }
    return out;
}"""
