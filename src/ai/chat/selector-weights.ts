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
    0.53624, -0.18674, 0.90083, 0.66086, 0.91634, 0.36831, 0.29188, 0.74719, 0.40808, -0.50071, 0.63517, 0.08476,
    -0.0717, 0.1425, 0.29836, 0.24744, -0.23463, 0.18903, 0.27374, -0.1302,
  ],
  followMargin: 4,
};
