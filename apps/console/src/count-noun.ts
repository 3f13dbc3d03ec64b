/** The noun after a count, as people read it: "1 object", "0 objects", "2 objects". */
export const countNoun = (count: number, singular: string, plural = `${singular}s`): string => (count === 1 ? singular : plural);
