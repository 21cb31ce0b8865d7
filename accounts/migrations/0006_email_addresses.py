"""Accounts made before django-allauth keep working: each address becomes the account's primary
EmailAddress. Mail about games has gone to these addresses, so they count as verified, except
where two accounts gave the same address: the older account keeps it verified, the newer ones must
confirm it (allauth allows one verified holder per address)."""

from django.db import migrations


def addresses_create(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    taken = {
        e.lower()
        for e in EmailAddress.objects.filter(verified=True).values_list("email", flat=True)
    }
    rows = []
    for user in User.objects.exclude(email="").filter(is_bot=False).order_by("pk").iterator():
        if EmailAddress.objects.filter(user_id=user.pk).exists():
            continue
        email = user.email.lower()
        rows.append(
            EmailAddress(user_id=user.pk, email=email, primary=True, verified=email not in taken)
        )
        taken.add(email)
    EmailAddress.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_preferences_profile_hidden"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(addresses_create, migrations.RunPython.noop)]
