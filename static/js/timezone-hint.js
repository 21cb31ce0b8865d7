// Settings: when the chosen time zone differs from the browser's, offer the browser's.
(function () {
  var select = document.getElementById("id_time_zone");
  var hint = document.getElementById("time-zone-hint");
  if (!select || !hint || !window.Intl) return;
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone || zone === select.value || !select.querySelector('option[value="' + zone + '"]')) return;
  var button = hint.querySelector("button");
  hint.querySelector("[data-zone]").textContent = zone;
  hint.hidden = false;
  button.addEventListener("click", function () {
    select.value = zone;
    hint.hidden = true;
  });
})();
