import type { HelpArticles } from '../types';

export const viVN: HelpArticles = {
  register: [
    'Cách đăng ký',
    'Chạm Đăng ký, chọn tên người dùng gồm chữ và số (tối đa 25 ký tự), mật khẩu đăng nhập ít nhất 6 ký tự và khóa bảo mật ít nhất 4 ký tự. Nhập số điện thoại hoặc e-mail, câu hỏi bí mật và câu trả lời, cùng mã mời nếu có.',
  ],
  topup: [
    'Cách nạp tiền',
    'Mở Nạp tiền, chọn TRC-20 hoặc ERC-20 và gửi USDT đến địa chỉ riêng hiển thị ở đó. Số tiền được cộng vào số dư sau khi mạng xác nhận (19 khối trên TRC-20, 12 khối trên ERC-20).',
  ],
  withdraw: [
    'Cách rút tiền',
    'Mở Rút tiền, chọn mạng, dán địa chỉ ví trên cùng mạng, nhập ít nhất 10 USDT và khóa bảo mật. Phí là 1 USDT trên TRC-20 và 5 USDT trên ERC-20; sau khi duyệt, tiền đến trong vòng 2 giờ.',
  ],
  vip: [
    'Cách kích hoạt VIP',
    'Mở Hạng thành viên, chọn cấp và xác nhận bằng khóa bảo mật. VIP1 là gói dùng thử 60 ngày, phí không hoàn lại; từ VIP2 trở lên, tiền đặt cọc được giữ trên số dư và có thể hoàn lại bất cứ lúc nào tại cùng trang.',
  ],
  password: [
    'Cách đổi mật khẩu đăng nhập',
    'Mở Tài khoản, rồi Đổi mật khẩu. Nhập mật khẩu hiện tại và mật khẩu mới hai lần (ít nhất 6 ký tự). Các thiết bị khác sẽ bị đăng xuất.',
  ],
  forgotKey: [
    'Quên khóa bảo mật',
    'Mở Quên khóa ở trang đăng nhập, nhập tên người dùng, mật khẩu đăng nhập và câu trả lời bí mật, rồi chọn khóa mới. Để an toàn, việc rút tiền bị tạm dừng 24 giờ sau khi đặt lại.',
  ],
};
