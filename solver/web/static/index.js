// The index page: only its words change with the language.
import { startLanguage } from "./common.js";

startLanguage().then(() => { document.body.dataset.ready = "true"; });
