// Written by scripts/fit-answerer.ts on the development split of the held-out pages; do not edit by hand.
import type { SelectorWeights } from "./selector.ts";

export const SELECTOR: SelectorWeights = {
  features: [
    "lexical",
    "bm25",
    "coverage",
    "coverage_gap",
    "specific",
    "context",
    "passage",
    "title",
    "typed",
    "type_missing",
    "typed_near",
    "novelty",
    "rank",
    "top_document",
    "semantic",
    "semantic_gap",
    "log_words",
    "lead",
    "dangling",
    "interrogative",
  ],
  mean: [
    0.88197, 0.31366, 0.20243, -0.51096, 0.40386, 0.07985, 0.77796, 0.26251, 0.29248, 0.16452, 0.1327, 0.86024, 0.65447,
    0.761, 0.29371, -0.2522, 3.11318, 0.10291, 0.10359, 0.01625,
  ],
  scale: [
    0.42832, 0.27375, 0.19501, 0.26582, 0.26628, 0.1523, 0.2786, 0.27545, 0.4549, 0.37075, 0.33925, 0.11955, 0.31589,
    0.42647, 0.12447, 0.15009, 0.45811, 0.30384, 0.30473, 0.12643,
  ],
  weights: [
    2.85567, -0.7877, 0.53403, 0.39177, 0.82147, 0.17958, 0.13071, 0.48184, 0.23112, -0.28359, 0.62819, 0.15432,
    -0.5955, -0.38436, 0.49312, 0.09909, -0.19308, 0.1842, 0.28957, -0.12664,
  ],
  followMargin: 3.25,
};
