variable "region" { default = "eu" }
resource "aws_instance" "web" { ami = "x" }
module "vpc" { source = "./vpc" }
output "ip" { value = 1 }
locals { a = 1 }
