// critique and debate: the text's claims kept apart from the objections it reports, each side quoting
// only sentences that speak for it (stance from cue words: "critics", "however", "supporters argue").
import { alone, dropLead, speakable, top, topicStems, type Material } from "./material.ts";
import { fill } from "./phrases.ts";
import { spokenWords, type Turn } from "./port.ts";
import { hasEvidence, isHedge, type RankedSentence } from "./text.ts";

const speakers = (m: Material) => m.spec.speakers.map((s) => s.name) as [string, string];
/** What the text itself holds or its supporters argue: never a sentence reporting an objection. */
const claimSide = (m: Material) => m.ranked.filter((s) => s.stance !== "against");
const objections = (m: Material) => m.ranked.filter((s) => s.stance === "against");

/** The claim-side sentence with figures that shares the most words with an objection: the text's answer to it. */
function answerTo(
  objection: RankedSentence,
  candidates: RankedSentence[],
  topic: Set<string>,
): RankedSentence | undefined {
  const words = new Set(objection.stems.filter((t) => !topic.has(t)));
  let best: { s: RankedSentence; shared: number } | undefined;
  for (const s of candidates) {
    if (s.stance !== "neutral" || !hasEvidence(s.text)) continue;
    const shared = new Set(s.stems.filter((t) => words.has(t))).size;
    if (shared >= 2 && shared > (best?.shared ?? 0)) best = { s, shared };
  }
  return best?.s;
}

/**
 * The programme at growing sizes (more quoted material at each level) until it reaches the format's
 * target words or the text has nothing more to give: the target is what the estimate promised.
 */
function toTarget(m: Material, build: (level: number) => Turn[], maxLevel: number): Turn[] {
  const target = m.spec.targetWords ?? 900;
  let turns = build(0);
  let words = spokenWords(turns);
  for (let level = 1; level <= maxLevel && words < target * 0.92; level++) {
    const next = build(level);
    const more = spokenWords(next);
    if (more <= words) break; // nothing left to quote
    if (more > target * 1.15) break; // one step too far: stay below
    [turns, words] = [next, more];
  }
  return turns;
}

export const critique = (m: Material): Turn[] => toTarget(m, (level) => critiqueAt(m, level), 8);
export const debate = (m: Material): Turn[] => toTarget(m, (level) => debateAt(m, level), 8);

function critiqueAt(m: Material, level: number): Turn[] {
  const [a, b] = speakers(m);
  const claims = top(claimSide(m), 2);
  const used = new Set(claims.map((s) => s.order));
  const evidence = top(
    claimSide(m).filter((s) => hasEvidence(s.text)),
    3 + level,
    used,
  );
  evidence.forEach((s) => used.add(s.order));
  const reported = top(objections(m), 2 + Math.ceil(level / 2), used);
  reported.forEach((s) => used.add(s.order));
  const limits = top(
    claimSide(m).filter((s) => isHedge(s.text)),
    2 + Math.floor(level / 2),
    used,
  );
  const turns: Turn[] = [
    { speaker: a, text: `${fill(m.p.crIntro, { title: m.title })} ${m.p.note}` },
    ...claims.map((s, i) => ({ speaker: a, text: `${i === 0 ? m.p.crClaim : m.p.crAlso}${alone(s)}` })),
    { speaker: b, text: m.p.crStrengthsAsk },
  ];
  if (evidence.length > 0)
    speakable(evidence).forEach((text) => turns.push({ speaker: b, text: `${m.p.crStrength}${text}` }));
  else if (claims[0]) turns.push({ speaker: b, text: `${m.p.crCentral}${alone(claims[0])}` });
  if (reported.length > 0) {
    turns.push({ speaker: a, text: m.p.crObjectionsAsk });
    const topic = topicStems(m);
    const answered = new Set<number>();
    for (const objection of reported) {
      turns.push({ speaker: b, text: `${m.p.crObjection}${dropLead(alone(objection))}` });
      // Weighing the objection: does the text's own evidence speak to it?
      const answer = answerTo(
        objection,
        claimSide(m).filter((s) => !answered.has(s.order) && (!used.has(s.order) || evidence.includes(s))),
        topic,
      );
      if (answer) answered.add(answer.order);
      turns.push({ speaker: a, text: answer ? `${m.p.crAnswered}${alone(answer)}` : m.p.crUnanswered });
    }
  }
  const unsupported = claims.find(
    (c) => !m.ranked.some((s) => s.section === c.section && s.stance !== "against" && hasEvidence(s.text)),
  );
  if (limits.length > 0 || unsupported) {
    turns.push({ speaker: a, text: m.p.crWeakAsk });
    limits.forEach((s) => turns.push({ speaker: b, text: `${m.p.crHedge}${dropLead(alone(s))}` }));
    if (unsupported) turns.push({ speaker: b, text: `${m.p.crNoEvidence}${alone(unsupported)}` });
  }
  turns.push({ speaker: a, text: m.p.crVerdictAsk });
  const verdict = claims[0] ? `${m.p.crVerdict}${alone(claims[0])}` : "";
  const open = reported[0]
    ? ` ${m.p.crStrongest}${dropLead(alone(reported[0]))}`
    : limits[0]
      ? ` ${m.p.crOpen}${dropLead(alone(limits[0]))}`
      : "";
  turns.push({ speaker: b, text: `${verdict}${open} ${m.p.crClose}`.trim() });
  return turns;
}

function debateAt(m: Material, level: number): Turn[] {
  const [a, b] = speakers(m);
  // The case: what supporters argue first, then the text's own central points.
  const argued = top(
    m.ranked.filter((s) => s.stance === "for"),
    3 + level,
  );
  // The other side: the objections the text reports, then the limits it admits.
  const counters = top(objections(m), 3 + level);
  const hedges = claimSide(m).filter((s) => s.stance === "neutral" && isHedge(s.text));
  // Beyond the first three, a point is made only when the other side has something of the text's to answer it with.
  const answerable = Math.max(3, Math.min(3 + level, counters.length + hedges.length));
  const claims = [
    ...argued.slice(0, answerable),
    ...top(
      m.ranked.filter((s) => s.stance === "neutral" && !isHedge(s.text)),
      answerable - Math.min(argued.length, answerable),
      new Set(argued.map((s) => s.order)),
    ),
  ].sort((x, y) => x.order - y.order);
  const used = new Set(claims.map((s) => s.order));
  const concessions = top(hedges, 3 + level, used);
  const turns: Turn[] = [
    { speaker: a, text: `${fill(m.p.dbIntro, { title: m.title, other: b })} ${m.p.note}` },
    { speaker: b, text: m.p.dbAccept },
  ];
  let conceded = 0;
  const spoken = new Set<number>();
  const topic = topicStems(m);
  // Each point meets the objection that speaks to it: pairs sharing the most words beyond the topic
  // are matched first; the points left over take the objections left over, in order.
  const points = speakable(claims);
  const overlap = (point: string, c: RankedSentence) => {
    const words = point.toLowerCase().split(/\W+/);
    return c.stems.filter((t) => !topic.has(t) && words.some((w) => w.startsWith(t))).length;
  };
  const pairs = points
    .flatMap((p, i) => counters.map((c) => ({ i, c, n: overlap(p, c) })))
    .filter((x) => x.n > 0)
    .sort((x, y) => y.n - x.n);
  const assigned = new Map<number, RankedSentence>();
  for (const { i, c } of pairs) if (!assigned.has(i) && ![...assigned.values()].includes(c)) assigned.set(i, c);
  const rest = counters.filter((c) => ![...assigned.values()].includes(c));
  points.forEach((_, i) => assigned.has(i) || (rest.length > 0 && assigned.set(i, rest.shift()!)));
  points.forEach((claim, i) => {
    turns.push({ speaker: a, text: `${fill(m.p.dbPoint, { n: i + 1 })}${claim}` });
    const counter = assigned.get(i);
    const concession = counter ? undefined : concessions[conceded++];
    if (counter) spoken.add(counter.order);
    if (counter) turns.push({ speaker: b, text: `${m.p.dbCounter}${dropLead(alone(counter))}` });
    else if (concession) turns.push({ speaker: b, text: `${m.p.dbConcede}${dropLead(alone(concession))}` });
    else turns.push({ speaker: b, text: m.p.dbChallenges[i % m.p.dbChallenges.length]! });
  });
  // Each side closes on its strongest sentence not yet spoken.
  const [closeFor] = top(claimSide(m), 1, used);
  if (closeFor) turns.push({ speaker: a, text: `${m.p.dbCloseFor}${alone(closeFor)}` });
  const [closeAgainst] = top(objections(m), 1, spoken);
  turns.push({
    speaker: b,
    text: closeAgainst
      ? `${m.p.dbCloseFor}${dropLead(alone(closeAgainst))} ${m.p.thanks}`
      : `${m.p.dbCloseAgainst} ${m.p.thanks}`,
  });
  return turns;
}
