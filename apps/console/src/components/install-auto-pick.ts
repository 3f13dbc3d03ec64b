/**
 * The install a picker chooses by itself: the only one, while nothing was chosen yet (the page's
 * first load). Once something was chosen, by the picker, the page's URL or the user, an empty value
 * is the user's "Pick a …": it stays empty, not picked again at once.
 */
export function installToAutoPick(value: string, choices: readonly string[], chosenBefore: boolean): string | undefined {
  return !chosenBefore && !value && choices.length === 1 ? choices[0] : undefined;
}
