// Sample source texts for podcast tests and the benchmark: a tiny article, a short one and a ~1,500-word one.

/** Short on purpose: a few sentences make every format quick to speak. */
export const TINY_ARTICLE = `# Tide pools

Tide pools hold small animals when the sea goes out. Sea stars grip the rock with tube feet. However, a hot day can still dry them out.

## Visiting

Visitors should step only on bare rock and watch the tide.
`;

export const SHORT_ARTICLE = `# Life in the tide pools

Tide pools are small worlds left behind when the ocean retreats at low tide. Anemones, sea stars and hermit crabs survive hours of sun and wind before the water returns.

## Holding on

Sea stars grip the rock with hundreds of tube feet, while limpets clamp down so tightly that a gull cannot pry them loose. However, a hot afternoon can still dry out the smallest animals.

## Visiting safely

Visitors should step only on bare rock and check the tide table, because the sea comes back faster than most people expect.
`;

const SECTIONS: [string, string[]][] = [
  [
    "Why cities are turning to rooftop gardens",
    [
      "Across many large cities, flat roofs that once held nothing but gravel and air conditioning units are being covered with soil, sedum and vegetable beds. The change is driven by a mix of practical pressures and civic ambition. City governments want to cool hot neighbourhoods, manage storm water and give residents somewhere green to spend time, and rooftops are the largest stretch of unused land most cities still have.",
      "A typical downtown district can have more roof area than park area. When that surface is dark bitumen, it absorbs sunlight all day and releases heat all night, which is one reason dense neighbourhoods stay several degrees warmer than the countryside around them. Planting the roof changes that balance. Leaves shade the membrane, and water evaporating from soil and plants carries heat away.",
      "Supporters also point to less measurable benefits. A garden on the roof of a school becomes an outdoor classroom, a garden on an office building becomes a place where colleagues meet, and a garden on a housing block can supply fresh herbs and tomatoes to people who have no yard of their own.",
    ],
  ],
  [
    "What the measurements show",
    [
      "Researchers have spent two decades measuring what green roofs actually do. A study of buildings in Toronto found that a planted roof kept the surface of the membrane up to 30 degrees cooler on summer afternoons than a conventional black roof. The same study reported that the top floor of the building needed noticeably less air conditioning during heat waves.",
      "Storm water is the second well documented effect. Depending on the depth of the soil, a green roof can hold back between 40 and 80 percent of the rain that falls on it during a typical summer storm. That matters in older cities whose sewers carry both rain and waste water, because a sudden storm can overwhelm the pipes and send untreated sewage into rivers.",
      "Measurements of biodiversity are more mixed. Roofs planted with a single species of sedum attract few insects, while roofs with a variety of native flowers can host dozens of species of bees and beetles. The data suggest that the design of the planting matters more than the mere presence of plants.",
    ],
  ],
  [
    "The engineering behind a living roof",
    [
      "A green roof is not simply a layer of soil poured onto a building. Underneath the plants sits a careful stack of materials. At the bottom is a waterproof membrane, protected by a root barrier so that plants cannot find their way into cracks. Above that lies a drainage layer that lets excess water run off, then a filter fabric, and finally a growing medium that is usually much lighter than garden soil.",
      "Weight is the main constraint. Saturated soil is heavy, and many older buildings were never designed to carry it. Engineers therefore distinguish between extensive roofs, with a shallow layer of growing medium and hardy plants, and intensive roofs, which can hold shrubs and even small trees but need a much stronger structure. An extensive roof may add as little as 80 kilograms per square metre, while an intensive one can add several hundred.",
      "The growing medium itself is engineered. It is usually a blend of crushed brick, pumice or expanded clay with a small share of compost, chosen because it drains quickly, stays light when wet and does not compact over the years. Ordinary topsoil would turn to mud in a storm and to dust in a drought.",
      "Maintenance is the other practical question. Extensive roofs need a visit or two a year to remove weeds and check drains. Intensive roofs are closer to ordinary gardens and need regular watering, pruning and care, which is why they are more common on buildings whose owners want people to use the space.",
    ],
  ],
  [
    "Costs, incentives and who pays",
    [
      "Green roofs cost more to build than conventional roofs, often between two and three times as much per square metre. Part of that extra cost is recovered over time, because the plants and soil protect the membrane from ultraviolet light and temperature swings, and a protected membrane can last twice as long. Lower energy bills recover a further part.",
      "Many cities now pay part of the cost. Some offer a grant per square metre of planted roof, some reduce the storm water fees that building owners pay, and a few, such as Toronto and Copenhagen, require green roofs on new buildings above a certain size. These rules have turned green roofs from a niche product into a standard option for architects.",
      "However, the benefits and the costs do not fall on the same people. The building owner pays for the roof, while the cooler streets and the relieved sewers benefit the whole neighbourhood. Critics argue that this mismatch is exactly why public money is needed, while others worry that subsidies mostly help wealthy developers who would have built attractive roofs anyway.",
    ],
  ],
  [
    "Three cities, three approaches",
    [
      "Copenhagen made green roofs mandatory on new buildings with gentle slopes in 2010, as part of a plan to become carbon neutral. The rule is simple to apply, because it does not ask owners to weigh costs and benefits, and within a decade the city had added tens of thousands of square metres of planted roof. Officials there describe the roofs as one piece of a wider plan to handle heavier rain, alongside parks that are designed to flood safely.",
      "Chicago chose a different path. Instead of a mandate, it offered faster building permits and small grants to developers who included green roofs, and it planted a well known garden on the roof of City Hall as a demonstration. The approach produced hundreds of roofs in the early years, but the pace slowed once the grants ended, which suggests that incentives alone may not sustain a programme.",
      "Singapore, a dense city in a hot and wet climate, folded rooftop greenery into a broader effort to bring plants onto every surface of its buildings. Developers who replace greenery lost at ground level with planted roofs, terraces and walls can count that area towards planning requirements. The result is a skyline where gardens appear at many heights, not only on the top floor.",
      "Comparing the three cities is difficult, because each measures success differently. Copenhagen counts square metres, Chicago counted projects, and Singapore counts the ratio of green area to site area. What they share is the idea that a roof is public infrastructure as much as private property.",
    ],
  ],
  [
    "Limits and open questions",
    [
      "Green roofs are not a cure for urban heat on their own. Their cooling effect is strongest on the roof itself and for the floor directly below it, and it fades quickly at street level, where people actually walk. Street trees and lighter pavements may do more for pedestrians per unit of money spent.",
      "There are also open questions about water. In dry climates, a planted roof may need irrigation during the summer, which uses the very resource that cities are trying to save. Researchers are testing drought tolerant native plants and roofs that collect rain in reservoirs beneath the growing medium, but the results are still preliminary.",
      "Finally, the long term performance of many roofs is unknown, because most were built in the last fifteen years. Membranes, drainage layers and plant communities all change with age, and it is not yet clear how well today's roofs will work in thirty years. Cities that are writing green roofs into their building codes are, in a sense, running a very large experiment.",
    ],
  ],
  [
    "What comes next",
    [
      "The next generation of projects tries to combine functions. Some roofs carry both plants and solar panels, and early measurements suggest the panels run slightly more efficiently because the plants keep the air around them cooler. Other roofs are designed as small farms that supply restaurants in the same building, or as habitats for specific birds and insects that have lost ground elsewhere in the city.",
      "Technology is also changing how roofs are looked after. Small sensors buried in the growing medium can report moisture and temperature, so that a maintenance team visits only when a roof actually needs water or repair. Some cities map every planted roof from the air each summer, using the colour of the vegetation to spot roofs that are drying out or failing. These tools are still expensive, but they could make large programmes far easier to manage.",
      "What seems certain is that the roof is no longer seen as a leftover surface. Architects, engineers and city planners increasingly treat it as part of the landscape, one that can cool a building, slow the rain, feed a neighbourhood and give people a view of the sky. The challenge now is to build these roofs where they help most, and to learn from the ones already built.",
    ],
  ],
];

/** About 1,500 words in six headed sections, with figures, hedges and examples. */
export const LONG_ARTICLE = [
  "# The quiet revolution on city rooftops",
  "",
  ...SECTIONS.flatMap(([heading, paragraphs]) => [`## ${heading}`, "", ...paragraphs.flatMap((p) => [p, ""])]),
].join("\n");
