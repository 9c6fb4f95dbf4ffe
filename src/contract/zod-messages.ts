import * as z from 'zod/mini'
import en from 'zod/v4/locales/en.js'

/**
 * zod/mini ships without messages ("Invalid input"); classic zod loads the
 * English ones on import. The data file and control API answer zod's own
 * messages, so the modules that do call this (server-side only: the browser
 * bundle needs no messages, every API message is our own). The bundled zod is
 * private to this package, so a user's zod keeps its own configuration.
 */
export const useEnglishZodMessages = (): void => {
  z.config(en())
}
