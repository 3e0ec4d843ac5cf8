import { getLocale, setLocale } from 'unplugin-tms/runtime'
import { createApp } from 'vue'
import App from './App.vue'

// Mounted once the first locale is loaded: a production build ships even the source locale's texts
// as a catalog.
setLocale(getLocale()).then(() => createApp(App).mount('#app'))
