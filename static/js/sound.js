// The optional sounds, one on/off switch for both (kept in this browser): a beep when it is your
// turn, a chime when someone asks something of you (a takeback, a pause, your seat).

import { $ } from "./room-page.js";
import { setting } from "./storage.js";
import { t } from "./i18n.js";

const soundSetting = setting("motable.sound");

export const sound = {
  context: null,
  get on() {
    return soundSetting.on;
  },
  toggle() {
    soundSetting.on = !this.on;
    this.show();
    if (this.on) this.beep();
  },
  show() {
    $("sound-toggle").setAttribute("aria-pressed", String(this.on));
    $("sound-state").textContent = this.on ? t("on") : t("off");
  },
  beep() {
    this.play([
      [0, 660],
      [0.13, 880],
    ]);
  },
  /** Someone asks something of you: three falling notes, unlike the turn's two rising ones. */
  chime() {
    this.play([
      [0, 988],
      [0.12, 784],
      [0.24, 659],
    ]);
  },
  play(notes) {
    if (!this.on) return;
    try {
      this.context ||= new AudioContext();
      const ctx = this.context;
      const now = ctx.currentTime;
      for (const [offset, freq] of notes) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = "sine";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, now + offset);
        gain.gain.exponentialRampToValueAtTime(0.18, now + offset + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.12);
        osc.connect(gain).connect(ctx.destination);
        osc.start(now + offset);
        osc.stop(now + offset + 0.14);
      }
    } catch {
      // Audio is a nicety: a browser that refuses it still shows the turn.
    }
  },
};
