/** The list of `/`: every todo of one user, or of all users. */
export function todoListArgs(userId: number | undefined): { userId?: number } {
  return userId === undefined ? {} : { userId };
}
