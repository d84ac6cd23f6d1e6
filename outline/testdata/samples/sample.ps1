Import-Module Az
function Get-Thing { param($Name) $Name }
class Widget { [string]$Name; [void] Run() {} }
$Global = 1
