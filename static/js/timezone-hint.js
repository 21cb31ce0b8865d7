// The browser's time zone: sign-up sends it in its hidden time_zone field (the new account's
// zone); Settings, when the chosen zone differs from it, offers it.
(() => {
  if (!window.Intl) return;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  var hidden = document.querySelector('input[type="hidden"][name="time_zone"]');
  if (hidden) hidden.value = zone;
  var select = document.getElementById("id_time_zone");
  var hint = document.getElementById("time-zone-hint");
  if (!select || !hint) return;
  if (zone === select.value || !select.querySelector(`option[value="${zone}"]`)) return;
  var button = hint.querySelector("button");
  hint.querySelector("[data-zone]").textContent = zone;
  hint.hidden = false;
  button.addEventListener("click", () => {
    select.value = zone;
    hint.hidden = true;
  });
})();
