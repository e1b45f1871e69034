/** The actions a file tool asks approval for; the values are what the user sees. */
export const FileActions = {
  READ: 'read file',
  EDIT: 'edit file',
  EDIT_OUTSIDE: 'edit file outside of working directory',
} as const;

/** One of the {@link FileActions} values. */
export type FileAction = (typeof FileActions)[keyof typeof FileActions];
