// Action words in the shape GET /api/games serves them (a descriptor's `action_words`), for the
// tests of the modules that fill them in. Each game's own words are on its GameSpec
// (engines/<game>/engine.py); these are a few of them, as a game would say them.

export const WORDS = {
  play: { done: "played {card}", otherwise: "played a card", ask: "play a card", params: { card: "card" } },
  draw: { done: "drew a card", otherwise: null, ask: "draw", params: {} },
  reveal: { done: "turned over {card}", otherwise: "turned a face-down card over", ask: "turn a face-down card over", params: { card: "card" } },
  set_aside: { done: "set {card} aside", otherwise: "set a card aside", ask: "set a card aside", params: { card: "card" } },
  place: { done: "placed a card, {side} side up", otherwise: "placed a card", ask: "place your card", params: { side: "text" } },
  give: { done: "gave a card to {seat}", otherwise: "gave a card away", ask: "give a card", params: { seat: "seat" } },
  witness: {
    done: "{verdict} as a witness",
    otherwise: "answered as a witness",
    ask: "confirm or dispute the success",
    params: { verdict: "text" },
    values: { verdict: { confirm: "confirmed the success", dispute: "disputed the success" } },
  },
  take: { done: "took the card on pile {pile}", otherwise: "took a card", ask: "take a card", params: { pile: "position" } },
};
