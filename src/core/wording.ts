/** A count with its noun in the right number: `1 string`, `4 strings`, `1 new string`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`
}
